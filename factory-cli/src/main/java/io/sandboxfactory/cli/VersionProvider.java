package io.sandboxfactory.cli;

import io.sandboxfactory.cli.client.VersionLine;
import picocli.CommandLine;

/** {@code factory --version} where picocli answers it (e.g. {@code factory --quiet --version}): the client's own line. */
final class VersionProvider implements CommandLine.IVersionProvider {

    @Override
    public String[] getVersion() {
        return new String[] {VersionLine.text()};
    }
}
