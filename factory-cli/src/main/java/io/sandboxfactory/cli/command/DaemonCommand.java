package io.sandboxfactory.cli.command;

import io.sandboxfactory.cli.ExitCodes;
import io.sandboxfactory.cli.FactoryCommand;
import io.sandboxfactory.cli.StateDirectories;
import io.sandboxfactory.cli.daemon.DaemonControl;
import io.sandboxfactory.cli.daemon.DaemonStatus;
import io.sandboxfactory.cli.output.Console;
import io.sandboxfactory.cli.output.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code factory daemon}: what the factory daemon of the state directory is doing, and stopping it.
 * Runs in the caller's own process (it is no {@code SERVED} command), so it never starts a daemon.
 * Not runnable itself: without {@code status} or {@code stop} picocli says a subcommand is missing (exit 2).
 */
@Command(mixinStandardHelpOptions = true, name = "daemon",
        description = "The factory daemon that keeps sessions warm between commands: its status, and stopping it.",
        subcommands = {DaemonCommand.Status.class, DaemonCommand.Stop.class},
        footerHeading = "%nExamples:%n", footer = {"  factory daemon status", "  factory --json daemon status", "  factory daemon stop"})
public final class DaemonCommand {

    /** How long {@code stop} waits for a daemon to finish its running commands and exit. */
    private static final Duration STOP_WAIT = Duration.ofSeconds(60);

    @ParentCommand
    FactoryCommand root;

    /** A subcommand of {@code factory daemon}: it works on the daemons of the command line's state directory. */
    abstract static class Subcommand implements Callable<Integer> {

        @ParentCommand
        DaemonCommand parent;

        @Override
        public Integer call() {
            Console console = parent.root.console;
            Path state = StateDirectories.named(parent.root.global.stateDir, console.environment(), console.workingDirectory(),
                    console.home());
            return call(console, DaemonControl.of(state), state, parent.root.global.json);
        }

        abstract int call(Console console, DaemonControl daemons, Path state, boolean json);
    }

    @Command(mixinStandardHelpOptions = true, name = "status",
            description = "Show the running factory daemon: pid, socket, start, idle timeout and the sessions it holds warm."
                    + " Exit 3 when none runs.")
    static final class Status extends Subcommand {

        @Override
        int call(Console console, DaemonControl control, Path state, boolean json) {
            List<DaemonStatus> daemons = control.statuses();
            if (json) {
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("running", !daemons.isEmpty());
                doc.put("stateDirectory", state.toString());
                doc.put("daemons", daemons);
                Json.print(console, doc);
            } else if (daemons.isEmpty()) {
                console.out().println("No factory daemon runs for " + state + ".");
            } else {
                for (DaemonStatus daemon : daemons) {
                    console.out().printf("factory daemon (pid %d)%n", daemon.pid());
                    console.out().printf("  socket:        %s%n", daemon.socket());
                    console.out().printf("  started:       %s%n", daemon.started());
                    console.out().printf("  idle timeout:  %s%n", daemon.idleTimeout());
                    console.out().printf("  running:       %d command(s)%n", daemon.commandsRunning());
                    console.out().printf("  warm sessions: %s%n",
                            daemon.warmSessions().isEmpty() ? "(none)" : String.join(", ", daemon.warmSessions()));
                }
            }
            return daemons.isEmpty() ? ExitCodes.NO_DAEMON : ExitCodes.OK;
        }
    }

    @Command(mixinStandardHelpOptions = true, name = "stop",
            description = "Stop the factory daemon: it finishes the commands it runs, ends the sandboxes it holds warm and exits.")
    static final class Stop extends Subcommand {

        @Override
        int call(Console console, DaemonControl control, Path state, boolean json) {
            List<DaemonControl.Stopped> stopped;
            try {
                stopped = control.stop(STOP_WAIT);
            } catch (IOException e) {
                throw new UncheckedIOException("Could not remove the factory daemon's socket in " + state + "/daemon: " + e.getMessage(), e);
            }
            if (json) {
                Json.print(console, Map.of("stopped", stopped.stream().map(Stop::json).toList()));
            } else if (stopped.isEmpty()) {
                console.out().println("No factory daemon ran for " + state + "; nothing to stop.");
            }
            for (DaemonControl.Stopped daemon : stopped) {
                String who = "factory daemon" + daemon.pid().map(pid -> " (pid " + pid + ")").orElse("") + " at " + daemon.socket();
                if (!daemon.exited()) {
                    console.err().println("factory: the " + who + " is still finishing its running commands; it exits when they are done.");
                } else if (!json) {
                    console.out().println("Stopped the " + who + ".");
                }
            }
            return ExitCodes.OK;
        }

        private static Map<String, Object> json(DaemonControl.Stopped daemon) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("socket", daemon.socket().toString());
            doc.put("pid", daemon.pid().orElse(null));
            doc.put("exited", daemon.exited());
            return doc;
        }
    }
}
