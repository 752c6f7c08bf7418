package io.sandboxfactory.cli;

import picocli.CommandLine;

/** Entry point of the {@code factory} command. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs {@code factory} with {@code args} and returns its exit code. */
    public static int run(String... args) {
        CommandLine commandLine = FactoryCommand.commandLine(new Console(System.out, System.err, System.getenv()));
        return commandLine.execute(args);
    }
}
