package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.CommandRequest;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.support.OutputCollector;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.SandboxExecTransportException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * Runs shell command lines, each as the leader of its own process group (see {@link Launcher}), so a timeout or a stop can kill everything a command started, backgrounded
 * grandchildren included.
 *
 * <p>A command is done when its shell exits; output still arriving is collected for a short grace
 * period. Processes it left running in the background keep running (a dev server started with
 * {@code &} stays up for the next command) until {@link #killAll()}. They should redirect their
 * output: once the command returned its pipes are closed, so a later write to them fails or raises
 * SIGPIPE. Thread-safe: commands may run in parallel.
 */
final class ProcessGroupRunner {

    /** How long output may keep flowing after the shell exited, from children that hold the pipes. */
    private static final Duration OUTPUT_GRACE = Duration.ofSeconds(2);

    private final Launcher launcher;
    private final CommandTracking tracking;

    /** @param tracking how the commands' processes are kept hold of, to kill them */
    ProcessGroupRunner(Launcher launcher, CommandTracking tracking) {
        this.launcher = launcher;
        this.tracking = tracking;
    }

    CommandResult run(CommandRequest request, Path cwd, Map<String, String> env) {
        OutputCollector stdout = new OutputCollector(request.maxRetainedBytes(), request.onStdout());
        OutputCollector stderr = new OutputCollector(request.maxRetainedBytes(), request.onStderr());
        long started = System.nanoTime();
        Launcher.Launch launch;
        try {
            launch = launcher.start(request.commandLine(), cwd, env, stdout, stderr);
        } catch (IOException e) {
            throw new SandboxExecTransportException("Could not start /bin/sh for command '" + request.commandLine()
                    + "': " + e.getMessage(), false, e);
        } catch (UncheckedIOException e) {
            throw new SandboxExecTransportException("Command '" + request.commandLine() + "' may have started, but "
                    + e.getCause().getMessage(), true, e);
        }
        CommandTracking.Tracked tracked = tracking.started(launch);
        try {
            boolean timedOut = !launch.awaitExit(request.timeout().orElse(null));
            if (timedOut) {
                tracked.timedOut();
            }
            long deadline = System.nanoTime() + OUTPUT_GRACE.toNanos();
            launch.awaitOutputEnd(deadline);
            launch.detach();
            stdout.finish();
            stderr.finish();
            int exit = timedOut ? CommandResult.TIMEOUT_EXIT_CODE : launch.exitCode();
            return new CommandResult(exit, stdout.text(), stderr.text(), Duration.ofNanos(System.nanoTime() - started),
                    timedOut, stdout.truncated(), stderr.truncated(), request.commandLine());
        } catch (InterruptedException e) {
            tracked.kill();
            Thread.currentThread().interrupt();
            throw new SandboxException(StandardErrorCode.INTERRUPTED, "Command '" + request.commandLine() + "' was interrupted and killed.", e);
        } catch (UncheckedIOException e) {
            tracked.kill();
            throw new SandboxExecTransportException("Command '" + request.commandLine() + "' was lost and killed: "
                    + e.getCause().getMessage(), true, e);
        } finally {
            launch.detach();
            tracked.finished();
        }
    }

    /** Kills every command this runner is running, and whatever earlier commands left running in the background. */
    void killAll() {
        tracking.killAll();
    }

    /** {@link #killAll()}, and no command starts again: the session was destroyed. */
    void end() {
        tracking.end();
    }
}
