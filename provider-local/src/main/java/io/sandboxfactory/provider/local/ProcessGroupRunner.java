package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.CommandRequest;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.OutputCollector;
import io.sandboxfactory.api.SandboxException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Runs one shell command line as the leader of its own process group (through {@code setsid}), so
 * a timeout or a stop can kill everything it started, backgrounded grandchildren included.
 */
final class ProcessGroupRunner {

    /** How long output may keep flowing after the shell exited, from children that hold the pipes. */
    private static final Duration OUTPUT_GRACE = Duration.ofSeconds(2);

    private final String setsid;
    private final Set<Process> running = ConcurrentHashMap.newKeySet();

    ProcessGroupRunner(String setsid) {
        this.setsid = setsid;
    }

    CommandResult run(CommandRequest request, Path cwd, Map<String, String> env) {
        ProcessBuilder builder = new ProcessBuilder(List.of(setsid, "/bin/sh", "-c", request.commandLine()))
                .directory(cwd.toFile());
        builder.environment().clear();
        builder.environment().putAll(env);
        OutputCollector stdout = new OutputCollector(request.maxRetainedBytes(), request.onStdout());
        OutputCollector stderr = new OutputCollector(request.maxRetainedBytes(), request.onStderr());
        long started = System.nanoTime();
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new SandboxException("EXEC_FAILED", "Could not start /bin/sh for command '" + request.commandLine() + "': " + e.getMessage(), e);
        }
        running.add(process);
        try {
            closeStdin(process);
            Thread out = pump(process.getInputStream(), stdout, "stdout");
            Thread err = pump(process.getErrorStream(), stderr, "stderr");
            boolean timedOut = !waitFor(process, request.timeout().orElse(null));
            if (timedOut) {
                killGroup(process);
            }
            joinQuietly(out);
            joinQuietly(err);
            stdout.finish();
            stderr.finish();
            int exit = timedOut ? CommandResult.TIMEOUT_EXIT_CODE : process.exitValue();
            return new CommandResult(exit, stdout.text(), stderr.text(), Duration.ofNanos(System.nanoTime() - started),
                    timedOut, stdout.truncated(), stderr.truncated(), request.commandLine());
        } catch (InterruptedException e) {
            killGroup(process);
            Thread.currentThread().interrupt();
            throw new SandboxException("INTERRUPTED", "Command '" + request.commandLine() + "' was interrupted and killed.", e);
        } finally {
            running.remove(process);
        }
    }

    private static void closeStdin(Process process) {
        try {
            process.getOutputStream().close();
        } catch (IOException ignored) {
            // Commands get no input; a stdin that is already gone is just as good.
        }
    }

    /** Kills every command this runner is running, with everything they started. */
    void killAll() {
        for (Process process : running) {
            killGroup(process);
        }
    }

    private static boolean waitFor(Process process, Duration timeout) throws InterruptedException {
        if (timeout == null) {
            process.waitFor();
            return true;
        }
        return process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    private static void killGroup(Process process) {
        long pgid = process.pid();
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        try {
            // The shell leads its own group (setsid), so -pgid reaches grandchildren that left its tree.
            new ProcessBuilder("kill", "-KILL", "--", "-" + pgid).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process.destroyForcibly();
    }

    private static Thread pump(InputStream in, OutputCollector sink, String name) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try (in) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    sink.accept(buffer, 0, n);
                }
            } catch (IOException ignored) {
                // The pipe closed under us (process killed); what was read is kept.
            }
        }, "local-exec-" + name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static void joinQuietly(Thread pump) throws InterruptedException {
        // A background child may keep the pipe open forever; the command's result must not wait for it.
        pump.join(OUTPUT_GRACE.toMillis());
    }
}
