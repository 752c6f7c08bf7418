package io.sandboxfactory.cli.client;

/**
 * {@code factory --version}'s one line, from the jar's manifest: the client prints it without
 * picocli, and picocli's version provider prints the same for every other spelling of the option.
 */
public final class VersionLine {

    private VersionLine() {
    }

    /** Whether the command line is only a version request ({@code factory --version} or {@code factory -V}). */
    static boolean asked(String[] args) {
        return args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"));
    }

    public static String text() {
        String version = VersionLine.class.getPackage().getImplementationVersion();
        return "factory " + (version == null ? "(development build)" : version) + " (Java " + Runtime.version() + ")";
    }
}
