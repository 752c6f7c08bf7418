package io.sandboxfactory.core.hardening;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A test JVM started with this JVM's own test classpath, whose stdout lines are collected as they
 * come. Waits are bounded only to turn a hang into a failure that shows the child's output; no
 * assertion depends on how long anything took. Public for the multi-host tests of store-postgres.
 */
public final class ChildProcess implements AutoCloseable {

    private static final Duration HANG_GUARD = Duration.ofMinutes(3);

    private final String name;
    private final Process process;
    private final Path stderr;
    private final List<String> lines = new ArrayList<>();
    private final Thread reader;

    private ChildProcess(String name, Process process, Path stderr) {
        this.name = name;
        this.process = process;
        this.stderr = stderr;
        this.reader = new Thread(this::read, "child-stdout-" + name);
        this.reader.setDaemon(true);
        this.reader.start();
    }

    /**
     * How a child JVM starts besides its class path and arguments: {@code launcher} in front of the
     * JVM (a command that ends by exec'ing the rest, so the child's pid is the JVM's), {@code
     * jvmOptions} after it, and {@code environment} added to the inherited one (where a secret the
     * child needs goes: never into its arguments).
     */
    public record Launch(List<String> launcher, List<String> jvmOptions, Map<String, String> environment) {
        public static final Launch PLAIN = new Launch(List.of(), List.of(), Map.of());

        public Launch {
            launcher = List.copyOf(launcher);
            jvmOptions = List.copyOf(jvmOptions);
            environment = Map.copyOf(environment);
        }
    }

    /** Starts {@code mainClass} with {@code args} in a new JVM; its stderr goes to {@code <logDir>/<name>.err}. */
    public static ChildProcess start(Path logDir, String name, Class<?> mainClass, List<String> args) throws IOException {
        return start(logDir, name, Launch.PLAIN, mainClass, args);
    }

    /** Starts {@code mainClass} as {@link #start(Path, String, Class, List)} does, the way {@code launch} says. */
    public static ChildProcess start(Path logDir, String name, Launch launch, Class<?> mainClass, List<String> args) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(launch.launcher());
        command.addAll(List.of(java, "-Xshare:auto", "-XX:TieredStopAtLevel=1"));
        command.addAll(launch.jvmOptions());
        command.addAll(List.of("-cp", classpath, mainClass.getName()));
        command.addAll(args);
        Files.createDirectories(logDir);
        Path err = logDir.resolve(name + ".err");
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(err.toFile());
        builder.environment().putAll(launch.environment());
        Process process = builder.start();
        return new ChildProcess(name, process, err);
    }

    private void read() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                synchronized (lines) {
                    lines.add(line);
                    lines.notifyAll();
                }
            }
        } catch (IOException ignored) {
            // The child was killed; what it printed is kept.
        }
    }

    public long pid() {
        return process.pid();
    }

    /** Waits for a stdout line matching {@code wanted} and returns it; fails if the child exits first. */
    public String awaitLine(Predicate<String> wanted) throws InterruptedException {
        long deadline = System.nanoTime() + HANG_GUARD.toNanos();
        synchronized (lines) {
            while (true) {
                for (String line : lines) {
                    if (wanted.test(line)) {
                        return line;
                    }
                }
                if (!process.isAlive() && !reader.isAlive()) {
                    throw new AssertionError("Child " + name + " exited (" + process.exitValue() + ") without the expected line; "
                            + describe());
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("Child " + name + " did not print the expected line; " + describe());
                }
                lines.wait(Math.min(200, TimeUnit.NANOSECONDS.toMillis(left) + 1));
            }
        }
    }

    /** Waits for the child to exit and returns its stdout lines; fails unless it exited with 0. */
    public List<String> awaitSuccess() throws InterruptedException {
        if (!process.waitFor(HANG_GUARD.toSeconds(), TimeUnit.SECONDS)) {
            throw new AssertionError("Child " + name + " hung; " + describe());
        }
        reader.join(10_000);
        if (process.exitValue() != 0) {
            throw new AssertionError("Child " + name + " failed (exit " + process.exitValue() + "); " + describe());
        }
        return lines();
    }

    public List<String> lines() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    /** Sends EOF on the child's stdin (a holding child then closes its factory and exits). */
    public void closeStdin() throws IOException {
        process.getOutputStream().close();
    }

    /** SIGKILL (on Linux {@code destroyForcibly} sends SIGKILL), then reaps the child so its pid is gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("Child " + name + " survived SIGKILL");
        }
    }

    /**
     * SIGKILL to the child and to the local provider's fork server it started, so that neither can end
     * the child's commands: the child is stopped first (SIGSTOP, awaited), so it cannot see its server
     * die and kill the commands itself.
     */
    public void killWithItsForkServer() throws InterruptedException, IOException {
        signal("STOP", process.pid());
        awaitState(process.pid(), "T");
        for (ProcessHandle server : process.toHandle().children()
                .filter(p -> p.info().command().map(c -> c.endsWith("/perl")).orElse(false)).toList()) {
            server.destroyForcibly();
            // A zombie, not gone: its stopped parent cannot reap it (and ProcessHandle counts a zombie alive).
            awaitState(server.pid(), "Z");
        }
        kill();
    }

    /** Waits up to a minute for process {@code pid} to be in {@code state} (or gone). */
    private static void awaitState(long pid, String state) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            try {
                String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
                if (stat.substring(stat.lastIndexOf(')') + 2).startsWith(state)) {
                    return;
                }
            } catch (IOException e) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("Process " + pid + " did not reach state " + state + " within a minute");
    }

    private static void signal(String signal, long pid) throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
    }

    public String describe() {
        String err;
        try {
            err = Files.readString(stderr);
        } catch (IOException e) {
            err = "<" + e + ">";
        }
        if (err.length() > 4000) {
            err = "…" + err.substring(err.length() - 4000);
        }
        return "stdout: " + lines() + "\nstderr: " + err;
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
