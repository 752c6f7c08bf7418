package io.sandboxfactory.cli;

import io.sandboxfactory.cli.daemon.DaemonClient;
import io.sandboxfactory.cli.output.Console;
import picocli.CommandLine;

import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalInt;

/** Entry point of the {@code factory} command. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        startupDefaults();
        Map<String, String> environment = System.getenv();
        DaemonClient daemon = DaemonClient.of(args, environment, Path.of("").toAbsolutePath(), Path.of(System.getProperty("user.home")));
        OptionalInt served = daemon.runThroughDaemon(args, System.out, System.err);
        if (served.isPresent()) {
            System.exit(served.getAsInt());
        }
        int code;
        try (ShutdownCancellation cancellation = ShutdownCancellation.install(Thread.currentThread())) {
            code = run(args);
            if (code != ExitCodes.BAD_INPUT && !cancellation.cancelled()) {
                // Bad input leaves nothing behind, not even a daemon; nor does a process being ended.
                daemon.startDaemonIfNone(System.err);
            }
        }
        System.exit(code);
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
