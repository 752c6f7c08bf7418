package io.sandboxfactory.bench;


import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The {@code factory} command as a user runs it (the repository's {@code ./factory} script, so the
 * class-data-sharing archive and the daemon are what they are for a user), on the local provider and
 * a state directory of the bench's own.
 */
public final class FactoryCommand {

    private static final Pattern DAEMON_PID = Pattern.compile("factory daemon (\\d+) serving");

    private final Path script;
    private final Processes processes;
    private final Path cwd;

    public FactoryCommand(Path script, BenchWorkspace workspace) {
        this.script = script.toAbsolutePath().normalize();
        this.processes = workspace.processes();
        this.cwd = workspace.root();
    }

    public Path script() {
        return script;
    }

    /** {@code factory --provider local --quiet ARGS…} with {@code FACTORY_STATE_DIR=state}; output discarded, a non-zero exit fails. */
    public void run(Path state, String... args) throws IOException, InterruptedException {
        processes.quiet(cwd, Map.of("FACTORY_STATE_DIR", state.toString()), command(args));
    }

    /** {@code factory --version}, alone on its command line (the client answers it without the full CLI); output discarded. */
    public void version(Path state) throws IOException, InterruptedException {
        processes.quiet(cwd, Map.of("FACTORY_STATE_DIR", state.toString()), List.of(script.toString(), "--version"));
    }

    /** The same, returning the output: for the set-up steps, whose failures the bench reports. */
    public String output(Path state, String... args) throws IOException, InterruptedException {
        return processes.run(cwd, Map.of("FACTORY_STATE_DIR", state.toString()), command(args));
    }

    private List<String> command(String... args) {
        List<String> command = new ArrayList<>(List.of(script.toString(), "--provider", "local", "--quiet"));
        command.addAll(List.of(args));
        return command;
    }

    /** The pid of the factory daemon serving {@code state}, from its log; empty when none started. */
    public OptionalLong daemonPid(Path state) throws IOException {
        Path dir = state.resolve("daemon");
        if (!Files.isDirectory(dir)) {
            return OptionalLong.empty();
        }
        long pid = -1;
        try (Stream<Path> logs = Files.list(dir)) {
            for (Path log : logs.filter(p -> p.toString().endsWith(".log")).toList()) {
                Matcher m = DAEMON_PID.matcher(Files.readString(log));
                while (m.find()) {
                    pid = Long.parseLong(m.group(1));
                }
            }
        }
        return pid > 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) ? OptionalLong.of(pid) : OptionalLong.empty();
    }

    /**
     * The pid of the daemon that a {@code factory open} of {@code state} starts in the background,
     * once it listens; empty when none does within 20 seconds (the factory's own limit for that).
     */
    public OptionalLong awaitDaemon(Path state) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            OptionalLong pid = daemonPid(state);
            if (pid.isPresent() || System.nanoTime() > deadline) {
                return pid;
            }
            // Nothing to wait on but the file system: the daemon is another process's child.
            Thread.sleep(50);
        }
    }

    /**
     * Stops the daemons of {@code state} the way docs/operations/daemon.md says (a daemon leaves when its socket
     * file goes) and waits for each to end, so none is still writing while its directory is removed.
     */
    public void stopDaemons(Path state) throws IOException, InterruptedException {
        OptionalLong pid = daemonPid(state);
        Path dir = state.resolve("daemon");
        if (Files.isDirectory(dir)) {
            try (Stream<Path> sockets = Files.list(dir)) {
                for (Path socket : sockets.filter(p -> p.toString().endsWith(".sock")).toList()) {
                    Files.deleteIfExists(socket);
                }
            }
        }
        if (pid.isPresent()) {
            Optional<ProcessHandle> daemon = ProcessHandle.of(pid.getAsLong());
            if (daemon.isPresent()) {
                try {
                    daemon.get().onExit().get(1, TimeUnit.MINUTES);
                } catch (ExecutionException | TimeoutException e) {
                    throw new IllegalStateException("Factory daemon " + pid.getAsLong() + " did not leave within a minute of its socket's removal.", e);
                }
            }
        }
    }
}
