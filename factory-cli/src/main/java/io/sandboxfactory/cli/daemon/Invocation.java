package io.sandboxfactory.cli.daemon;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;

/**
 * A first look at a command line without picocli, cheap enough for the start of every process:
 * which subcommand it names, the {@code --state-dir} it gives and whether it asks for help (or a
 * version) or a verbose run. Anything it does not understand makes it {@link #unknown()}, and the
 * command line is then left to picocli alone.
 *
 * @param subcommand the subcommand, empty when there is none or the line was not understood
 * @param help whether it asks for help or the version
 * @param verbose whether it asks for the debug log ({@code --verbose})
 * @param quiet whether it asks for no progress lines ({@code --quiet}), which also silences the daemon's start notice
 */
record Invocation(Optional<String> subcommand, Path stateDirectory, boolean help, boolean verbose, boolean quiet) {

    private static final Set<String> VALUE_OPTIONS = Set.of("--provider", "--config", "--state-dir");
    private static final String JSON = "--json";
    private static final String QUIET = "--quiet";
    private static final Set<String> HELP = Set.of("-h", "--help", "-V", "--version");
    private static final String VERBOSE = "--verbose";

    static Invocation unknown() {
        return new Invocation(Optional.empty(), null, false, false, false);
    }

    /**
     * Reads the global options before the subcommand (any other option there makes the line
     * unknown), then up to {@code --} (or the end) only {@code --state-dir} and the help, version,
     * verbose and quiet flags, which picocli also accepts after the subcommand.
     */
    static Invocation of(String[] args) {
        String subcommand = null;
        Path stateDirectory = null;
        boolean help = false;
        boolean verbose = false;
        boolean quiet = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--")) {
                break;
            }
            String name = arg.contains("=") && arg.startsWith("--") ? arg.substring(0, arg.indexOf('=')) : arg;
            if (HELP.contains(arg)) {
                help = true;
            } else if (arg.equals(VERBOSE)) {
                verbose = true;
            } else if (VALUE_OPTIONS.contains(name)) {
                String value;
                if (name.equals(arg)) {
                    if (i + 1 >= args.length) {
                        return unknown();
                    }
                    value = args[++i];
                } else {
                    value = arg.substring(name.length() + 1);
                }
                if (name.equals("--state-dir")) {
                    try {
                        stateDirectory = Path.of(value);
                    } catch (InvalidPathException e) {
                        return unknown();
                    }
                }
            } else if (arg.equals(QUIET)) {
                quiet = true;
            } else if (arg.equals(JSON)) {
                continue;
            } else if (subcommand == null) {
                if (arg.startsWith("-")) {
                    return unknown();
                }
                subcommand = arg;
            }
            // After the subcommand: its own options and arguments, which only picocli knows.
        }
        return new Invocation(Optional.ofNullable(subcommand), stateDirectory, help, verbose, quiet);
    }
}
