package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.CommandRequest;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.OutputCollector;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.SandboxExecTransportException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs shell command lines, each as the leader of its own session and process group (through
 * {@code setsid}), so a timeout or a stop can kill everything a command started, backgrounded
 * grandchildren included.
 *
 * <p>A command is done when its shell exits; output still arriving is collected for a short grace
 * period. Processes it left running in the background keep running (a dev server started with
 * {@code &} stays up for the next command) until {@link #killAll()}. They should redirect their
 * output: once the command returned its pipes are closed (the JDK does so itself when the shell
 * exits), so a later write to them fails or raises SIGPIPE. Thread-safe: commands may run in
 * parallel.
 */
final class ProcessGroupRunner {

    /** How long output may keep flowing after the shell exited, from children that hold the pipes. */
    private static final Duration OUTPUT_GRACE = Duration.ofSeconds(2);

    private final String setsid;
    private final RunningCommands running;
    private final ProcessGroups groups = new ProcessGroups();

    /** @param running where each command is recorded while it runs, so it can be ended if this host dies */
    ProcessGroupRunner(String setsid, RunningCommands running) {
        this.setsid = setsid;
        this.running = running;
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
            throw new SandboxExecTransportException("Could not start /bin/sh for command '" + request.commandLine()
                    + "': " + e.getMessage(), false, e);
        }
        groups.add(process);
        running.started(process);
        closeStdin(process);
        OutputPump out = OutputPump.start(process.getInputStream(), stdout, "stdout");
        OutputPump err = OutputPump.start(process.getErrorStream(), stderr, "stderr");
        try {
            boolean timedOut = !waitFor(process, request.timeout().orElse(null));
            if (timedOut) {
                groups.kill(process);
            }
            long deadline = System.nanoTime() + OUTPUT_GRACE.toNanos();
            out.awaitEnd(deadline);
            err.awaitEnd(deadline);
            out.detach();
            err.detach();
            stdout.finish();
            stderr.finish();
            int exit = timedOut ? CommandResult.TIMEOUT_EXIT_CODE : process.exitValue();
            return new CommandResult(exit, stdout.text(), stderr.text(), Duration.ofNanos(System.nanoTime() - started),
                    timedOut, stdout.truncated(), stderr.truncated(), request.commandLine());
        } catch (InterruptedException e) {
            groups.kill(process);
            Thread.currentThread().interrupt();
            throw new SandboxException("INTERRUPTED", "Command '" + request.commandLine() + "' was interrupted and killed.", e);
        } finally {
            running.finished(process);
            out.detach();
            err.detach();
            groups.forgetFinished();
        }
    }

    /** Kills every command this runner is running, and whatever earlier commands left running in the background. */
    void killAll() {
        groups.killAll();
    }

    private static void closeStdin(Process process) {
        try {
            process.getOutputStream().close();
        } catch (IOException ignored) {
            // Commands get no input; a stdin that is already gone is just as good.
        }
    }

    private static boolean waitFor(Process process, Duration timeout) throws InterruptedException {
        if (timeout == null) {
            process.waitFor();
            return true;
        }
        return process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * Copies one output stream into its collector on its own thread until the stream ends or the
     * command is over ({@link #detach()}): a background child may hold the pipe open for hours,
     * and its later output must neither reach the caller's callbacks after the command returned
     * nor keep the result waiting.
     */
    private static final class OutputPump {
        private final Object gate = new Object();
        private final OutputCollector sink;
        private final Thread thread;
        private boolean detached;

        private OutputPump(InputStream in, OutputCollector sink, String name) {
            this.sink = sink;
            this.thread = new Thread(() -> copy(in), "local-exec-" + name);
            this.thread.setDaemon(true);
        }

        static OutputPump start(InputStream in, OutputCollector sink, String name) {
            OutputPump pump = new OutputPump(in, sink, name);
            pump.thread.start();
            return pump;
        }

        private void copy(InputStream in) {
            byte[] buffer = new byte[8192];
            try (in) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    synchronized (gate) {
                        if (detached) {
                            return;
                        }
                        sink.accept(buffer, 0, n);
                    }
                }
            } catch (IOException ignored) {
                // The pipe closed under us (process killed); what was read is kept.
            }
        }

        void awaitEnd(long deadlineNanos) throws InterruptedException {
            long remaining = deadlineNanos - System.nanoTime();
            if (remaining > 0) {
                thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(remaining)));
            }
        }

        /** After this returns the collector receives nothing more. */
        void detach() {
            synchronized (gate) {
                detached = true;
            }
        }
    }
}
