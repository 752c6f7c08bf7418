package io.sandboxfactory.cli;

import io.sandboxfactory.cli.daemon.DaemonClient;
import io.sandboxfactory.cli.output.Console;
import picocli.CommandLine;

/**
 * The full {@code factory} command, in this process: what {@link io.sandboxfactory.cli.client.FactoryClient}
 * (the entry point) hands over to when no factory daemon runs the command line.
 */
public final class Main {

    private Main() {
    }

    /**
     * Runs the command line in this process and returns its exit code; afterwards starts the
     * factory daemon of its state directory for later commands, when it is one a daemon serves.
     */
    public static int inProcess(String[] args, DaemonClient daemon) {
        startupDefaults();
        int code;
        try (ShutdownCancellation cancellation = ShutdownCancellation.install(Thread.currentThread())) {
            code = run(args);
            if (code != ExitCodes.BAD_INPUT && !cancellation.cancelled()) {
                // Bad input leaves nothing behind, not even a daemon; nor does a process being ended.
                daemon.startDaemonIfNone(System.err);
            }
        }
        return code;
    }

    /**
     * Library settings that make a short-lived process start faster; a value the user passed with
     * {@code -D} wins. Guice otherwise generates bytecode for every provider method and constructor,
     * a one-off cost that only pays back in a long-running process (the factory uses no method
     * interception, the one Guice feature that needs it).
     */
    public static void startupDefaults() {
        setIfAbsent("guice_bytecode_gen_option", "DISABLED");
    }

    private static void setIfAbsent(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }

    /** Runs {@code factory} with {@code args} and returns its exit code. */
    public static int run(String... args) {
        CommandLine commandLine = FactoryCommand.commandLine(new Console(System.out, System.err, System.getenv()), args);
        return commandLine.execute(args);
    }
}
