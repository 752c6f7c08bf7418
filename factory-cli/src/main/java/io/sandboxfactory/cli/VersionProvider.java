package io.sandboxfactory.cli;

import picocli.CommandLine;

/** {@code factory --version}: the version from the jar manifest. */
final class VersionProvider implements CommandLine.IVersionProvider {

    @Override
    public String[] getVersion() {
        String version = Main.class.getPackage().getImplementationVersion();
        return new String[] {"factory " + (version == null ? "(development build)" : version)
                + " (Java " + Runtime.version() + ")"};
    }
}
