package com.example.tmpdir;

import io.sandboxfactory.api.CommandRequest;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.ErrorCode;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.support.OutputCollector;
import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.SandboxExecTransportException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One session: a directory, and commands run in it with {@code /bin/sh -c}. MastraSandbox owns the
 * lifecycle (single-flight start, hooks, env overlay, idempotent stop/destroy); this class only
 * implements the primitives.
 */
final class TmpdirSandbox extends MastraSandbox<Path> {

    private final Path directory;
    private final Map<String, String> baseEnv;
    private final Set<Process> running = ConcurrentHashMap.newKeySet();

    TmpdirSandbox(String sessionId, Path directory, Map<String, String> baseEnv) {
        super(sessionId, "tmpdir-" + sessionId);
        this.directory = directory;
        this.baseEnv = baseEnv;
    }

    @Override
    public Optional<String> workingDirectory() {
        return Optional.of(directory.toString());
    }

    // ---- acquisition: find -> connect, else create ----

    @Override
    protected Optional<Path> find() {
        return Files.isDirectory(directory) ? Optional.of(directory) : Optional.empty();
    }

    @Override
    protected void connect(Path handle) {
        // A directory needs no connecting.
    }

    @Override
    protected Path create() throws IOException {
        return Files.createDirectories(directory);
    }

    // ---- stop keeps the files, destroy removes them ----

    @Override
    protected void doStop(Path handle) {
        running.forEach(TmpdirSandbox::killTree);
    }

    @Override
    protected void doDestroy(Path handle) throws IOException {
        doStop(handle);
        if (Files.exists(handle)) {
            try (Stream<Path> tree = Files.walk(handle)) {
                for (Path path : tree.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(path);
                }
            }
        }
    }

    // ---- commands ----

    @Override
    protected CommandResult doExecute(CommandRequest request) {
        if (!Files.isDirectory(directory)) {
            throw new SandboxDestroyedException("The directory of sandbox '" + id() + "' (" + directory + ") no longer exists.");
        }
        ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", request.commandLine())
                .directory(request.cwd().map(directory::resolve).orElse(directory).toFile());
        builder.environment().clear();
        builder.environment().putAll(baseEnv);
        // HOME is the session directory, so tools writing dotfiles keep them inside the session, not in the host user's home.
        builder.environment().put("HOME", directory.toString());
        builder.environment().putAll(request.env()); // already holds the overlay, per-call values winning

        OutputCollector stdout = new OutputCollector(request.maxRetainedBytes(), request.onStdout());
        OutputCollector stderr = new OutputCollector(request.maxRetainedBytes(), request.onStderr());
        long started = System.nanoTime();
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new SandboxExecTransportException("Could not start /bin/sh in sandbox '" + id() + "': " + e.getMessage(), false, e);
        }
        running.add(process);
        try {
            process.getOutputStream().close(); // commands get no input
            Thread out = pump(process.getInputStream(), stdout);
            Thread err = pump(process.getErrorStream(), stderr);
            boolean finished = waitFor(process, request.timeout());
            if (!finished) {
                killTree(process);
            }
            out.join(5_000);
            err.join(5_000);
            stdout.finish();
            stderr.finish();
            return new CommandResult(finished ? process.exitValue() : CommandResult.TIMEOUT_EXIT_CODE, stdout.text(), stderr.text(),
                    Duration.ofNanos(System.nanoTime() - started), !finished, stdout.truncated(), stderr.truncated(),
                    request.commandLine());
        } catch (IOException e) {
            killTree(process);
            throw new SandboxExecTransportException("Lost the command in sandbox '" + id() + "': " + e.getMessage(), true, e);
        } catch (InterruptedException e) {
            killTree(process);
            Thread.currentThread().interrupt();
            throw new SandboxException(ErrorCode.INTERRUPTED, "The command in sandbox '" + id() + "' was interrupted and killed.", e);
        } finally {
            running.remove(process);
        }
    }

    private static boolean waitFor(Process process, Optional<Duration> timeout) throws InterruptedException {
        if (timeout.isEmpty()) {
            process.waitFor();
            return true;
        }
        return process.waitFor(timeout.get().toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Kills the shell and everything it started (collect the children first: they are re-parented once the shell dies). */
    private static void killTree(Process process) {
        List<ProcessHandle> children = process.descendants().toList();
        process.destroyForcibly();
        children.forEach(ProcessHandle::destroyForcibly);
    }

    /** Copies one output stream into its collector, which forwards chunks to the caller's callback as they arrive. */
    private static Thread pump(InputStream in, OutputCollector sink) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try (in) {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    sink.accept(buffer, 0, n);
                }
            } catch (IOException ignored) {
                // The process was killed and its pipe closed; what was read is kept.
            }
        }, "tmpdir-output");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
