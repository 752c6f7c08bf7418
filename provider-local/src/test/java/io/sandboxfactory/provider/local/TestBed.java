package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.testing.TestProviderContext;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.FactorySandboxContext;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A local provider opened on a sessions root inside a test's temporary directory. Remembers every
 * sandbox it made and stops them on {@link #close()}, so no test leaves processes behind.
 */
final class TestBed implements AutoCloseable {

    private final Path temp;
    private final Path root;
    private final List<LocalFactorySandbox> factories = new ArrayList<>();
    private final List<LocalSandbox> sandboxes = new ArrayList<>();
    private final LocalFactorySandbox factory;

    TestBed(Path temp) {
        this(temp, new LocalProviderConfig(temp.resolve("sessions").toString(), null, null, null));
    }

    TestBed(Path temp, LocalProviderConfig config) {
        this.temp = temp;
        this.root = Path.of(config.root());
        this.factory = openFactory(config);
    }

    /** A new provider instance on the same root, as a second process would open it. */
    LocalFactorySandbox openFactory(LocalProviderConfig config) {
        LocalFactorySandbox opened = (LocalFactorySandbox) new LocalSandboxProvider()
                .open(config, new TestProviderContext(temp.resolve("state")));
        factories.add(opened);
        return opened;
    }

    LocalFactorySandbox factory() {
        return factory;
    }

    Path root() {
        return root;
    }

    LocalSandbox sandbox(String sessionId) {
        return track(factory, sessionId);
    }

    LocalSandbox track(LocalFactorySandbox from, String sessionId) {
        LocalSandbox sandbox = (LocalSandbox) from.create(FactorySandboxContext.of(sessionId));
        sandboxes.add(sandbox);
        return sandbox;
    }

    static CommandResult run(LocalSandbox sandbox, String command) {
        return sandbox.executeCommand(command, List.of(), CommandOptions.builder().timeout(Duration.ofSeconds(60)).build());
    }

    static CommandResult run(LocalSandbox sandbox, String command, CommandOptions options) {
        return sandbox.executeCommand(command, List.of(), options);
    }

    static long readPid(Path file) throws IOException {
        return Long.parseLong(Files.readString(file).trim());
    }

    /**
     * A process a command of {@code sandbox} wrote the pid of: that pid is its session's pid
     * namespace's (with isolation), so it is found on the host by its namespace and its pid there.
     */
    static SessionPid readPid(LocalSandbox sandbox, Path file) throws IOException {
        String namespace = run(sandbox, "readlink /proc/self/ns/pid").stdout().trim();
        assertThat(namespace).startsWith("pid:[");
        return new SessionPid(namespace, readPid(file));
    }

    /** A pid as a session's pid namespace numbers it. */
    record SessionPid(String namespace, long pid) {

        /** The host's pid of the process, while it exists. */
        Optional<Long> hostPid() {
            try (var entries = Files.list(Path.of("/proc"))) {
                return entries.filter(p -> p.getFileName().toString().matches("\\d+")).filter(this::isIt)
                        .map(p -> Long.parseLong(p.getFileName().toString())).findFirst();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        private boolean isIt(Path proc) {
            try {
                if (!Files.readSymbolicLink(proc.resolve("ns/pid")).toString().equals(namespace)) {
                    return false;
                }
                return Files.readAllLines(proc.resolve("status")).stream().filter(l -> l.startsWith("NSpid:"))
                        .anyMatch(l -> l.endsWith("\t" + pid) || l.endsWith(" " + pid));
            } catch (IOException | RuntimeException e) {
                return false; // gone meanwhile
            }
        }
    }

    static boolean isDead(SessionPid process) {
        return process.hostPid().map(TestBed::isDead).orElse(true);
    }

    static void assertDiesSoon(SessionPid process) throws InterruptedException {
        for (int i = 0; i < 200 && !isDead(process); i++) {
            Thread.sleep(50);
        }
        assertThat(isDead(process)).as("process %s still runs", process).isTrue();
    }

    /** Whether process {@code pid} is gone or a zombie waiting for its reaper (it runs no more). */
    static boolean isDead(long pid) {
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isEmpty() || !handle.get().isAlive()) {
            return true;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            char state = stat.charAt(stat.lastIndexOf(')') + 2);
            return state == 'Z' || state == 'X';
        } catch (IOException | RuntimeException e) {
            return true;
        }
    }

    /** Waits (bounded, to keep a failing test from hanging) until {@code pid} is dead; asserts it is. */
    static void assertDiesSoon(long pid) throws InterruptedException {
        for (int i = 0; i < 200 && !isDead(pid); i++) {
            Thread.sleep(50);
        }
        assertThat(isDead(pid)).as("process %d still runs", pid).isTrue();
    }

    @Override
    public void close() {
        for (LocalSandbox sandbox : sandboxes) {
            try {
                sandbox.stop();
            } catch (RuntimeException ignored) {
                // A test may have left the sandbox in any state; stopping is best effort.
            }
        }
        factories.forEach(LocalFactorySandbox::close);
    }
}
