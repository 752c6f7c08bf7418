package io.sandboxfactory.cli.daemon;

import io.sandboxfactory.cli.ExitCodes;
import io.sandboxfactory.cli.StateDirectories;
import io.sandboxfactory.core.config.DurationFormat;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.ProcessBuilder.Redirect;
import java.lang.management.ManagementFactory;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The {@code factory} side of the factory daemon. Every {@link #SERVED} command asks the daemon of
 * its state directory to run it, with its own arguments, working directory and environment, and
 * relays the output and the exit code; the daemon keeps factories and running sandboxes warm, so
 * the command costs one JVM start plus the command. When there is no daemon (or it declines), the
 * command runs in this process as usual, and afterwards starts a daemon for the next call.
 * {@code FACTORY_DAEMON=off} turns all of this off; a help or version invocation always runs in
 * this process.
 */
public final class DaemonClient {

    /**
     * The commands a daemon runs: every one that works with a factory, except {@code shell} (its
     * terminal and stdin are the caller's), {@code mcp} (a long-lived server of its own on the
     * caller's stdio), {@code providers} and {@code completion} (no session, nothing to keep warm).
     * {@code run} opens and destroys its ephemeral session inside the daemon; {@code export} runs
     * the host's git there with the caller's environment and working directory.
     */
    static final Set<String> SERVED = Set.of("run", "open", "exec", "status", "list", "cat", "ls", "cp", "touch", "retire", "sweep",
            "template", "log", "diff", "export");
    /**
     * Served commands that never start a daemon: {@code status}, {@code list} and {@code log} read
     * the store, and after {@code retire} or {@code sweep} there is nothing warm to keep; a running
     * daemon answers them, but starting a JVM for them would only cost the user a process.
     */
    static final Set<String> NEVER_START_A_DAEMON = Set.of("status", "list", "log", "retire", "sweep");

    private static final Duration RETRY_FAILED_DAEMON_AFTER = Duration.ofMinutes(10);

    /**
     * Sized for a process that mostly waits: the serial collector (no collector threads) giving
     * memory back as the heap empties, a small first heap, C1 only (C2 and its arenas cost more
     * memory than the daemon's work gains from them), half the default thread stacks and a
     * smaller code cache. Idle, that is about half the RSS of the defaults; see docs/operations/daemon.md.
     */
    static final List<String> DAEMON_JVM_OPTIONS = List.of("-XX:+UseSerialGC", "-Xms8m", "-Xmx1g",
            "-XX:MinHeapFreeRatio=10", "-XX:MaxHeapFreeRatio=30", "-XX:TieredStopAtLevel=1", "-Xss512k",
            "-XX:ReservedCodeCacheSize=64m", "-XX:-UsePerfData");

    private final Invocation invocation;
    private final Map<String, String> environment;
    private final Path workingDirectory;
    /** The state directory whose daemon this command may use; empty when it may use none. */
    private final Optional<Path> stateDirectory;

    private DaemonClient(Invocation invocation, Map<String, String> environment, Path workingDirectory,
                         Optional<Path> stateDirectory) {
        this.invocation = invocation;
        this.environment = environment;
        this.workingDirectory = workingDirectory;
        this.stateDirectory = stateDirectory;
    }

    public static DaemonClient of(String[] args, Map<String, String> environment, Path workingDirectory, Path home) {
        Invocation invocation = Invocation.of(args);
        boolean wanted = !"off".equals(environment.get("FACTORY_DAEMON")) && !invocation.help() && served(invocation);
        return new DaemonClient(invocation, environment, workingDirectory, wanted
                ? stateDirectory(invocation, environment, workingDirectory, home) : Optional.empty());
    }

    /** The state directory the command names; empty when it names none that is valid (picocli then says why). */
    private static Optional<Path> stateDirectory(Invocation invocation, Map<String, String> environment, Path workingDirectory,
                                                 Path home) {
        try {
            return Optional.of(StateDirectories.named(invocation.stateDirectory(), environment, workingDirectory, home));
        } catch (RuntimeException invalid) {
            return Optional.empty();
        }
    }

    /** Whether this command line starts a daemon when none listens: a served one that does more than read the store. */
    static boolean startsDaemon(Invocation invocation) {
        return served(invocation) && !NEVER_START_A_DAEMON.contains(invocation.subcommand().get());
    }

    /** Whether the daemon runs this command line. */
    static boolean served(Invocation invocation) {
        // No stream or lambda: this runs at the start of every command.
        return invocation.subcommand().isPresent() && SERVED.contains(invocation.subcommand().get());
    }

    private Optional<DaemonAddress> address() {
        // No method reference: linking one costs this start-up path a few milliseconds.
        return stateDirectory.isPresent() ? DaemonAddress.of(stateDirectory.get()) : Optional.empty();
    }

    /**
     * Runs the command line through the daemon when it is one the daemon runs and a daemon listens;
     * returns its exit code, or empty when nothing ran there (the caller then runs it itself).
     */
    public OptionalInt runThroughDaemon(String[] args, PrintStream out, PrintStream err) {
        Optional<DaemonAddress> address = address();
        if (address.isEmpty() || !served(invocation)) {
            return OptionalInt.empty();
        }
        SocketChannel channel;
        try {
            channel = SocketChannel.open(UnixDomainSocketAddress.of(address.get().socket()));
        } catch (IOException | UnsupportedOperationException e) {
            return OptionalInt.empty();
        }
        try (channel) {
            DataOutputStream requests = new DataOutputStream(DaemonProtocol.output(channel));
            DataInputStream frames = new DataInputStream(DaemonProtocol.input(channel));
            DaemonProtocol.writeRequest(requests, new DaemonProtocol.Request(Arrays.asList(args), workingDirectory.toString(),
                    environment));
            DaemonProtocol.Frame first = DaemonProtocol.readFrame(frames);
            if (first == null || first.type() != DaemonProtocol.STARTED) {
                return OptionalInt.empty();
            }
            return OptionalInt.of(relay(frames, out, err, address.get()));
        } catch (IOException e) {
            // Before STARTED nothing ran: run it here. After it, relay() has reported the failure.
            return OptionalInt.empty();
        }
    }

    private static int relay(DataInputStream frames, PrintStream out, PrintStream err, DaemonAddress address) {
        try {
            for (DaemonProtocol.Frame frame = DaemonProtocol.readFrame(frames); frame != null; frame = DaemonProtocol.readFrame(frames)) {
                switch (frame.type()) {
                    case DaemonProtocol.STDOUT -> {
                        out.write(frame.payload(), 0, frame.payload().length);
                        out.flush();
                    }
                    case DaemonProtocol.STDERR -> {
                        err.write(frame.payload(), 0, frame.payload().length);
                        err.flush();
                    }
                    case DaemonProtocol.EXIT -> {
                        return frame.exitCode();
                    }
                    default -> {
                    }
                }
            }
        } catch (IOException e) {
            // Reported below: the command may have run in part.
        }
        err.println("factory: the factory daemon stopped before the command finished, so it may have run in part; see "
                + address.log() + ".");
        return ExitCodes.INFRASTRUCTURE;
    }

    /**
     * After a served command that ran in this process: starts the daemon of the
     * state directory in the background (in a session of its own, so the terminal's Ctrl-C does not
     * reach it) unless one listens already, and says so once on {@code err} (unless {@code --quiet}):
     * a process that outlives the command must not go unnoticed. Never fails the command: a daemon
     * that cannot start only means later commands run in their own process too.
     */
    public void startDaemonIfNone(PrintStream err) {
        if (!startsDaemon(invocation)) {
            return;
        }
        // Asked only now: the state directory may have been made by this very command.
        Optional<DaemonAddress> address = address();
        if (address.isEmpty()) {
            return;
        }
        DaemonAddress daemon = address.get();
        try (SocketChannel ignored = SocketChannel.open(UnixDomainSocketAddress.of(daemon.socket()))) {
            return;
        } catch (IOException | UnsupportedOperationException notListening) {
            // Start one below, unless one could not listen here a moment ago (say, a file system without sockets).
        }
        if (daemon.failedRecently(RETRY_FAILED_DAEMON_AFTER)) {
            return;
        }
        try {
            daemon.prepareDirectory();
            // Written before the start, so the log shows every start, including those that fail at once.
            Files.writeString(daemon.log(), Instant.now() + " starting a factory daemon for process " + ProcessHandle.current().pid()
                    + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            List<String> command = new ArrayList<>();
            setsid().ifPresent(command::add);
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(DAEMON_JVM_OPTIONS);
            command.addAll(inheritedOptions(ManagementFactory.getRuntimeMXBean().getInputArguments()));
            command.addAll(List.of("-cp", absolute(System.getProperty("java.class.path")), FactoryDaemon.class.getName(),
                    daemon.socket().toString()));
            // setsid execs the JVM in the same process (a child is no process group leader), so this is the daemon's pid.
            long pid = new ProcessBuilder(command)
                    .directory(daemon.socket().getParent().toFile())
                    .redirectInput(Redirect.from(new File("/dev/null")))
                    .redirectErrorStream(true)
                    .redirectOutput(Redirect.appendTo(daemon.log().toFile()))
                    .start().pid();
            if (!invocation.quiet()) {
                err.println(startNotice(pid, FactoryDaemon.idleTimeout(environment)));
            }
        } catch (IOException | RuntimeException e) {
            // Later commands start their own JVM, as without a daemon.
        }
    }

    /** The one line a command that started a daemon prints on stderr. */
    static String startNotice(long pid, Duration idleTimeout) {
        String idle = idleTimeout.toSeconds() % 60 == 0 && idleTimeout.toMillis() % 1000 == 0 && !idleTimeout.isZero()
                ? idleTimeout.toMinutes() + " min" : DurationFormat.format(idleTimeout);
        return "factory: started a factory daemon (pid " + pid + "); it stops after " + idle + " idle; factory daemon stop";
    }

    /**
     * The options of the client's JVM that the daemon it starts takes too: the start-up archive
     * {@code ./factory} passes (a class-data-sharing archive or an AOT cache of the client's classes,
     * which the daemon loads from the same jars; optional, {@code -Xshare:auto} and {@code
     * -XX:AOTMode=auto}: a JVM that cannot map it starts without it), and on JDK 24 and later the
     * native and memory access that keep the JVM's warnings about SQLite's native library and
     * libraries' {@code sun.misc.Unsafe} out of the daemon's log, as out of the client's stderr.
     */
    static List<String> inheritedOptions(List<String> clientJvmOptions) {
        return clientJvmOptions.stream()
                .filter(option -> option.startsWith("-XX:SharedArchiveFile=") || option.startsWith("-Xshare:")
                        || option.startsWith("-XX:AOTCache=") || option.startsWith("-XX:AOTMode=")
                        || option.startsWith("--enable-native-access=") || option.startsWith("--sun-misc-unsafe-memory-access="))
                .toList();
    }

    /** {@code classPath} with every entry absolute: the daemon starts in its socket's directory, not the caller's. */
    static String absolute(String classPath) {
        StringBuilder absolute = new StringBuilder();
        for (String entry : classPath.split(File.pathSeparator)) {
            if (absolute.length() > 0) {
                absolute.append(File.pathSeparator);
            }
            absolute.append(new File(entry).getAbsolutePath());
        }
        return absolute.toString();
    }

    private static Optional<String> setsid() {
        for (String path : List.of("/usr/bin/setsid", "/bin/setsid")) {
            if (Files.isExecutable(Path.of(path))) {
                return Optional.of(path);
            }
        }
        return Optional.empty();
    }
}
