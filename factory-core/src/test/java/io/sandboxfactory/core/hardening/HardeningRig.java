package io.sandboxfactory.core.hardening;

import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.core.testing.Git;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Real parts and real gates for the hardening tests, all under one temporary directory:
 * <ul>
 *   <li>a state directory shared by the test and its child processes (SQLite store, local sessions);</li>
 *   <li>gates that park a sandbox command in a chosen phase until the test releases them: a git smudge
 *       filter (so {@code git clone} or {@code git checkout} stops half way through writing the working
 *       tree, holding git's locks), a {@code mv} wrapper first on {@code PATH} (so the atomic marker write
 *       stops before its rename) and a setup command that waits. A parked command appends its shell's pid
 *       to {@code gate/reached}; a gate only parks while its {@code gate/block-<name>} file exists, and
 *       everything parked goes on once {@code gate/release} exists;</li>
 *   <li>bare repositories whose {@code *.txt} files pass through the smudge filter.</li>
 * </ul>
 */
final class HardeningRig {

    static final String SESSIONS = "sessions";
    /** The local provider's owner marker in a session directory. */
    static final String OWNER_MARKER = ".sandbox-factory-session";

    final Path root;
    final Path state;
    final Path gate;
    final Path setupLog;

    /** The local provider's isolation for every factory of the rig; empty: the default. */
    final Optional<String> isolation;

    HardeningRig(Path root) throws IOException {
        this(root, Optional.empty());
    }

    /**
     * @param isolation {@code none} for tests of what a dead host's commands leave behind on the host
     *     (their records, their host pids, which the gates record)
     */
    HardeningRig(Path root, Optional<String> isolation) throws IOException {
        this.root = root;
        this.isolation = isolation;
        this.state = root.resolve("state");
        this.gate = root.resolve("gate");
        this.setupLog = root.resolve("setup.log");
        Files.createDirectories(gate.resolve("bin"));
        script(gate.resolve("filter"), "#!/bin/sh\n" + park("filter") + "exec cat\n");
        String mv = Stream.of("/usr/bin/mv", "/bin/mv").filter(p -> Files.isExecutable(Path.of(p))).findFirst().orElseThrow();
        script(gate.resolve("bin/mv"), "#!/bin/sh\ncase \"$*\" in *.mastra-sandbox*) " + park("marker").replace("\n", " ")
                + ";; esac\nexec " + mv + " \"$@\"\n");
        Files.writeString(gate.resolve("gitconfig"), "[filter \"gate\"]\n\tsmudge = " + gate.resolve("filter")
                + "\n\tclean = cat\n\trequired = true\n");
    }

    /**
     * Shell code that parks while {@code gate/block-<name>} exists, recording its pid. It also goes
     * on once the gate directory is gone, so nothing parked outlives the test's temporary directory.
     */
    private String park(String name) {
        return "if [ -f '" + gate.resolve("block-" + name) + "' ]; then echo $$ >> '" + gate.resolve("reached") + "'; "
                + "while [ ! -f '" + gate.resolve("release") + "' ] && [ -d '" + gate + "' ]; do sleep 0.05; done; fi\n";
    }

    private static void script(Path file, String text) throws IOException {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** A command that parks at gate {@code name}, then succeeds. */
    String parkingCommand(String name) {
        return park(name).strip();
    }

    /** A setup command that logs {@code start}, parks at the {@code setup} gate, then logs {@code done}. */
    String setupCommand() {
        return "echo start >> '" + setupLog + "'; " + park("setup").strip() + "; echo done >> '" + setupLog + "'";
    }

    List<String> setupLog() throws IOException {
        return Files.exists(setupLog) ? Files.readAllLines(setupLog) : List.of();
    }

    /** The local provider environment every factory of the rig uses: the gates on PATH and in git's config. */
    Map<String, String> providerEnv() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", gate.resolve("bin") + ":" + System.getenv().getOrDefault("PATH", "/usr/local/bin:/usr/bin:/bin"));
        env.put("GIT_CONFIG_GLOBAL", gate.resolve("gitconfig").toString());
        return env;
    }

    /** Child process arguments for {@link OpenSessionChild}: the state directory and the provider environment. */
    List<String> childArgs(String... more) {
        List<String> args = new ArrayList<>();
        args.add("state=" + state);
        // The gates and the setup log are the test's, on the host: shared into the isolated sessions.
        args.add("volume=" + root);
        isolation.ifPresent(value -> args.add("isolation=" + value));
        providerEnv().forEach((k, v) -> args.add("env." + k + "=" + v));
        args.addAll(List.of(more));
        return args;
    }

    SandboxFactory factory(SessionListener listener) {
        Map<String, Object> local = new LinkedHashMap<>(Map.of("env", providerEnv(), "volumes", List.of(root.toString())));
        isolation.ifPresent(value -> local.put("isolation", value));
        FactoryConfig config = FactoryConfig.builder().providerSection("local", local).build();
        return SandboxFactory.builder().config(config).provider("local").stateDirectory(state).environment(Map.of())
                .sessionListener(listener).build();
    }

    void block(String name) throws IOException {
        Files.writeString(gate.resolve("block-" + name), "");
    }

    void unblockAll() throws IOException {
        try (Stream<Path> files = Files.list(gate)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                if (file.getFileName().toString().startsWith("block-")) {
                    Files.delete(file);
                }
            }
        }
    }

    /** Lets everything still parked go on, and ends what has not within a few seconds (cleanup). */
    void release() throws IOException, InterruptedException {
        unblockAll();
        Files.writeString(gate.resolve("release"), "");
        long deadline = System.nanoTime() + 5_000_000_000L;
        for (long pid : parkedPids()) {
            Optional<ProcessHandle> parked = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
            while (parked.isPresent() && parked.get().isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            parked.filter(ProcessHandle::isAlive).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    /** Pids of the sandbox shells that reached a gate. */
    List<Long> parkedPids() throws IOException {
        Path reached = gate.resolve("reached");
        return Files.exists(reached) ? Files.readAllLines(reached).stream().map(String::strip).filter(s -> !s.isEmpty())
                .map(Long::parseLong).toList() : List.of();
    }

    /**
     * Waits until the local provider's record of command {@code pid} of session {@code sessionId}
     * is on disk: from then on the command outlives its host's death, for the next start to reap.
     */
    void awaitRecorded(String sessionId, long pid) throws InterruptedException {
        Path record = sessionDirectory(sessionId).resolveSibling(".sandbox-factory-running").resolve(sessionId).resolve(Long.toString(pid));
        long deadline = System.nanoTime() + 180_000_000_000L;
        while (!Files.exists(record)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Command " + pid + " of session " + sessionId + " was never recorded at " + record);
            }
            Thread.sleep(20);
        }
    }

    /** Waits until {@code count} sandbox shells are parked at a gate. */
    void awaitParked(int count, ChildProcess child) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + 180_000_000_000L;
        while (parkedPids().size() < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Nothing reached the gate; child " + child.describe());
            }
            Thread.sleep(20);
        }
    }

    /**
     * Whether {@code pid} still runs. A killed process stays a zombie until its parent reaps it
     * (an orphan's new parent may take a while on a loaded machine): that counts as gone.
     */
    static boolean alive(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            char state = stat.charAt(stat.lastIndexOf(')') + 2);
            return state != 'Z' && state != 'X';
        } catch (IOException | RuntimeException gone) {
            return false;
        }
    }

    /**
     * Waits until {@code pid} no longer runs (a signal is delivered asynchronously); true when it is
     * gone, false when it still runs after a minute.
     */
    static boolean awaitGone(long pid) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (alive(pid) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        return !alive(pid);
    }

    Path sessions() {
        return state.resolve(SESSIONS);
    }

    Path sessionDirectory(String sessionId) {
        return sessions().resolve(sessionId);
    }

    /** The names of the session directories under the local provider's root (session ids never start with a dot). */
    List<String> sessionDirectories() throws IOException {
        if (!Files.isDirectory(sessions())) {
            return List.of();
        }
        try (Stream<Path> dirs = Files.list(sessions())) {
            return dirs.filter(Files::isDirectory).map(p -> p.getFileName().toString()).filter(n -> !n.startsWith("."))
                    .sorted().toList();
        }
    }

    /**
     * A bare repository {@code <name>.git}: {@code main} has a README and a {@code .gitattributes}
     * sending {@code *.txt} through the gate filter, plus {@code main.txt} when {@code gatedMain};
     * {@code dev} adds {@code dev.txt}.
     */
    Path repository(String name, boolean gatedMain) throws IOException {
        Path work = root.resolve("seed-" + name);
        Files.createDirectories(work);
        Git.run(work, "init", "-q", "-b", "main");
        Files.writeString(work.resolve("README.md"), "# " + name + "\n");
        Files.writeString(work.resolve(".gitattributes"), "*.txt filter=gate\n");
        if (gatedMain) {
            Files.writeString(work.resolve("main.txt"), "main\n");
        }
        Git.run(work, "add", ".");
        Git.run(work, "commit", "-q", "-m", "initial");
        Git.run(work, "checkout", "-q", "-b", "dev");
        Files.writeString(work.resolve("dev.txt"), "dev\n");
        Git.run(work, "add", ".");
        Git.run(work, "commit", "-q", "-m", "dev");
        Git.run(work, "checkout", "-q", "main");
        Path bare = root.resolve("remotes/" + name + ".git");
        Files.createDirectories(bare.getParent());
        Git.run(root, "clone", "-q", "--bare", work.toString(), bare.toString());
        return bare;
    }

    // ---- the session store, read and edited behind the factory's back ------------------------------

    private Connection db() throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + state.resolve("sessions.db"));
    }

    /** The lease row of {@code sessionId}: host, pid and expiry; empty when no lease is held (a released one keeps only its token). */
    Optional<String> leaseRow(String sessionId) throws SQLException {
        try (Connection c = db(); PreparedStatement ps = c.prepareStatement(
                "SELECT host, pid, expires_at FROM leases WHERE session_id = ? AND owner_id IS NOT NULL")) {
            ps.setString(1, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1) + "/" + rs.getLong(2) + "/" + rs.getLong(3)) : Optional.empty();
            }
        }
    }

    /**
     * Makes the lease of {@code sessionId} look held by a process on another host (whose death
     * cannot be proven from here) that has {@code millisLeft} of its lease left.
     */
    void moveLeaseToAnotherHost(String sessionId, long millisLeft) throws SQLException {
        try (Connection c = db(); PreparedStatement ps = c.prepareStatement(
                "UPDATE leases SET host = 'elsewhere.invalid', expires_at = ? WHERE session_id = ? AND owner_id IS NOT NULL")) {
            ps.setLong(1, System.currentTimeMillis() + millisLeft);
            ps.setString(2, sessionId);
            if (ps.executeUpdate() != 1) {
                throw new AssertionError("No lease row for session '" + sessionId + "'");
            }
        }
    }
}
