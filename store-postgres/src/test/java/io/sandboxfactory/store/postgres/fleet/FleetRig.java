package io.sandboxfactory.store.postgres.fleet;

import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.hardening.ChildProcess;
import io.sandboxfactory.core.hardening.OpenSessionChild;
import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.store.postgres.testing.TestPostgres;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A fleet of hosts under one temporary directory: each host is a JVM (or a factory in the test's
 * own JVM) with a state directory of its own, all on one local provider root (the shared provider)
 * and one PostgreSQL store. A child JVM runs in a UTS namespace of its own with its own host name,
 * so no other host can judge it dead by its pid, as on separate machines.
 *
 * <p>The setup command logs {@code start <host> <tag>} to {@code setup.log}, parks while
 * {@code gate/block-<host>} exists (its shell's pid in {@code gate/parked-<host>}), then logs
 * {@code done <host> <tag>}: the test decides which host's setup stops and when it goes on.
 *
 * <p>The hosts' local provider runs without isolation ({@link #ISOLATION}): the rig is about the
 * store's leases, and its gates need the setup shells' host pids and the test's files on the host.
 */
final class FleetRig {

    static final String MARKER = ".mastra-sandbox/setup";
    /** The setup shells record their pids, which the test signals and watches on the host: no pid namespace. */
    static final String ISOLATION = "none";

    final Path root;
    final Path sessions;
    final Path gate;
    final Path setupLog;
    final Path repo;
    private final Path hostsFile;
    private final List<String> hostNames = new ArrayList<>();
    private final List<ChildProcess> children = new ArrayList<>();

    FleetRig(Path root, List<String> hostNames) throws IOException {
        this.root = root;
        this.sessions = root.resolve("shared-sessions");
        this.gate = root.resolve("gate");
        this.setupLog = root.resolve("setup.log");
        this.hostsFile = root.resolve("hosts");
        this.hostNames.addAll(hostNames);
        Files.createDirectories(gate);
        Files.createDirectories(root.resolve("home"));
        // The hosts resolve their own names without DNS (the JDK reads this file instead of the system's).
        Files.writeString(hostsFile, "127.0.0.1 localhost\n127.0.1.1 " + String.join(" ", hostNames) + "\n");
        this.repo = Git.bareRepository(root.resolve("remotes/site.git"));
    }

    /** The command in front of a child JVM that gives it host name {@code host}, or empty when this machine cannot. */
    static Optional<List<String>> hostLauncher(String host) {
        String script = "hostname \"$0\" && exec \"$@\"";
        List<List<String>> candidates = List.of(List.of("unshare", "--uts"), List.of("unshare", "--user", "--map-root-user", "--uts"));
        for (List<String> unshare : candidates) {
            List<String> probe = new ArrayList<>(unshare);
            probe.addAll(List.of("sh", "-c", script, "fleet-probe", "true"));
            if (succeeds(probe)) {
                List<String> launcher = new ArrayList<>(unshare);
                launcher.addAll(List.of("sh", "-c", script, host));
                return Optional.of(launcher);
            }
        }
        return Optional.empty();
    }

    /** Skips (or in CI fails) unless child JVMs can get host names of their own. */
    static void requireHostNames() {
        if (hostLauncher("fleet-probe").isEmpty()) {
            TestPostgres.unavailable("Cannot give a child JVM a host name of its own here (unshare --uts, as root or in a user"
                    + " namespace, failed)", null);
        }
    }

    private static boolean succeeds(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The same setup text for every host (it is part of the session's definition); {@code tag} tells sessions apart in the log. */
    String setupCommand(String tag) {
        String block = gate + "/block-$FLEET_HOST";
        return "echo \"start $FLEET_HOST " + tag + "\" >> '" + setupLog + "'; "
                + "if [ -f \"" + block + "\" ]; then echo $$ >> \"" + gate + "/parked-$FLEET_HOST\"; "
                + "while [ -f \"" + block + "\" ] && [ -d '" + gate + "' ]; do sleep 0.05; done; fi; "
                + "echo \"done $FLEET_HOST " + tag + "\" >> '" + setupLog + "'";
    }

    SessionSpec spec(String sessionId) {
        return SessionSpec.builder(sessionId).repository(repo.toString()).branch("work").baseBranch("main")
                .setupCommands(setupCommand(sessionId)).build();
    }

    /** The variables of host {@code host}'s sandbox commands. */
    Map<String, String> providerEnv(String host) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/local/bin:/usr/bin:/bin"));
        env.put("HOME", root.resolve("home").toString());
        env.put("FLEET_HOST", host);
        return env;
    }

    /**
     * Starts host {@code host} as a JVM of its own ({@link OpenSessionChild}) opening {@code session}
     * through the store {@code storeEnv} selects; {@code more} are further {@code key=value} arguments.
     */
    ChildProcess host(String host, Map<String, String> storeEnv, String session, String... more) throws IOException {
        List<String> args = new ArrayList<>(List.of("state=" + root.resolve("state-" + host), "root=" + sessions,
                "repo=" + repo, "session=" + session, "base=main", "setup=" + setupCommand(session), "isolation=" + ISOLATION));
        providerEnv(host).forEach((k, v) -> args.add("env." + k + "=" + v));
        // The password goes in the child's environment, never its arguments.
        Map<String, String> secrets = new LinkedHashMap<>();
        storeEnv.forEach((k, v) -> {
            if (k.equals(TestPostgres.PASSWORD_VARIABLE)) {
                secrets.put(k, v);
            } else {
                args.add("factoryenv." + k + "=" + v);
            }
        });
        args.add("passenv=" + String.join(",", secrets.keySet()));
        args.addAll(List.of(more));
        List<String> launcher = hostLauncher(host).orElseThrow(() -> new AssertionError("no host launcher; requireHostNames() first"));
        ChildProcess.Launch launch = new ChildProcess.Launch(launcher, List.of("-Djdk.net.hosts.file=" + hostsFile), secrets);
        ChildProcess child = ChildProcess.start(root.resolve("logs"), host, launch, OpenSessionChild.class, args);
        children.add(child);
        return child;
    }

    /** Host {@code host} as a factory in this JVM, with a state directory of its own. */
    SandboxFactory factory(String host, Map<String, String> storeEnv, SessionListener listener) throws IOException {
        Map<String, Object> local = Map.of("root", sessions.toString(), "env", providerEnv(host), "isolation", ISOLATION);
        return SandboxFactory.builder().config(FactoryConfig.builder().provider("local").providerSection("local", local).build())
                .stateDirectory(Files.createDirectories(root.resolve("state-" + host))).environment(storeEnv)
                .sessionListener(listener).build();
    }

    void block(String host) throws IOException {
        Files.writeString(gate.resolve("block-" + host), "");
    }

    void unblock(String host) throws IOException {
        Files.deleteIfExists(gate.resolve("block-" + host));
    }

    /** Pids of host {@code host}'s setup shells that parked at its gate. */
    List<Long> parked(String host) throws IOException {
        Path file = gate.resolve("parked-" + host);
        return Files.exists(file) ? Files.readAllLines(file).stream().map(String::strip).filter(s -> !s.isEmpty())
                .map(Long::parseLong).toList() : List.of();
    }

    /** Waits until a setup shell of {@code host} is parked; fails, with the child's output, if the child dies first. */
    long awaitParked(String host, ChildProcess child) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (parked(host).isEmpty()) {
            if (System.nanoTime() > deadline || child != null && !alive(child.pid())) {
                throw new AssertionError("No setup of " + host + " reached its gate; " + (child == null ? "" : child.describe()));
            }
            Thread.sleep(20);
        }
        return parked(host).get(0);
    }

    List<String> setupLog() throws IOException {
        return Files.exists(setupLog) ? Files.readAllLines(setupLog) : List.of();
    }

    /** The session directories on the shared provider root (session ids never start with a dot). */
    List<String> sessionDirectories() throws IOException {
        if (!Files.isDirectory(sessions)) {
            return List.of();
        }
        try (Stream<Path> dirs = Files.list(sessions)) {
            return dirs.filter(Files::isDirectory).map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".")).sorted().toList();
        }
    }

    Path marker(String sessionId) {
        return sessions.resolve(sessionId).resolve(MARKER);
    }

    /** The lease row of {@code sessionId} as {@code <token> <host or "free">}, read behind the store's back. */
    static String leaseRow(String url, String schema, String sessionId) throws SQLException {
        try (Connection c = TestPostgres.connect(url); PreparedStatement ps = c.prepareStatement(
                "SELECT fencing_token, COALESCE(host, 'free') FROM " + schema + ".leases WHERE session_id = ?")) {
            ps.setString(1, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) + " " + rs.getString(2) : "none";
            }
        }
    }

    /** Sends {@code signal} (STOP, CONT, KILL) to {@code pid}. */
    static void signal(long pid, String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true).start();
        String out = new String(kill.getInputStream().readAllBytes());
        if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new AssertionError("kill -" + signal + " " + pid + " failed: " + out);
        }
    }

    /** The state letter of {@code pid} in {@code /proc} (R, S, T for stopped, Z), or empty once it is gone. */
    static Optional<Character> processState(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return Optional.of(stat.charAt(stat.lastIndexOf(')') + 2));
        } catch (IOException | RuntimeException gone) {
            return Optional.empty();
        }
    }

    static boolean alive(long pid) {
        return processState(pid).filter(s -> s != 'Z' && s != 'X').isPresent();
    }

    /** Waits until {@code pid}'s state is {@code wanted} (a signal is delivered asynchronously). */
    static void awaitState(long pid, char wanted) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (processState(pid).filter(s -> s == wanted).isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Process " + pid + " did not reach state " + wanted + " (" + processState(pid) + ")");
            }
            Thread.sleep(10);
        }
    }

    static void awaitGone(long pid) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (alive(pid)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Process " + pid + " survived");
            }
            Thread.sleep(10);
        }
    }

    /** Ends every child still running and lets every parked setup go (its gate directory goes with the temporary one). */
    void close() throws IOException, InterruptedException {
        for (ChildProcess child : children) {
            if (processState(child.pid()).filter(s -> s == 'T').isPresent()) {
                signal(child.pid(), "CONT");
            }
            child.close();
        }
        for (String host : hostNames) {
            for (long pid : parked(host)) {
                if (alive(pid)) {
                    signal(pid, "KILL");
                }
            }
        }
    }
}
