package io.sandboxfactory.api.support;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.CommandRequest;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.SandboxExecTransportException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Runs a sandbox's commands as processes of this host, what a provider whose sandbox is a host
 * directory (or a test double) needs for {@code doExecute}: {@code /bin/sh -c} with the request's
 * command line, in the request's working directory resolved against the sandbox's directory (a
 * missing one is {@link CommandRequest#cwdMissing}, a missing sandbox directory a {@link
 * SandboxDestroyedException}; the command does not run), with exactly the
 * given base environment under the request's variables, and no input.
 *
 * <p>Output reaches the request's callbacks as it arrives and is retained up to the request's cap
 * ({@link OutputCollector}). A command that runs past its timeout is killed with every process it
 * started, its children's children too, and ends with exit code {@value CommandResult#TIMEOUT_EXIT_CODE}
 * and {@code timedOut}; an interrupted caller kills it the same way and gets a {@code INTERRUPTED}
 * failure with its interrupt status kept. A command is done when its shell exits: what it left
 * running in the background keeps running, and output such children still write is taken for
 * {@link #OUTPUT_GRACE} at most, then no longer (they should redirect it).
 *
 * <p>One runner per sandbox; {@link #killAll()} ends every command it is running (a stop).
 * Thread-safe: commands may run in parallel.
 *
 * @since 0.1.0
 */
public final class HostCommandRunner {

    /** How long output may keep flowing after the shell exited, from children that hold the pipes. */
    public static final Duration OUTPUT_GRACE = Duration.ofSeconds(2);

    /** One daemon thread per output stream: a stream may stay open as long as a background child lives. */
    private static final Executor PUMP_THREADS = task -> {
        Thread thread = new Thread(task, "host-command-output");
        thread.setDaemon(true);
        thread.start();
    };

    private final String sandboxId;
    private final Set<Process> running = ConcurrentHashMap.newKeySet();

    /** @param sandboxId the sandbox the commands run for, named in every failure */
    public HostCommandRunner(String sandboxId) {
        this.sandboxId = Objects.requireNonNull(sandboxId, "sandboxId");
    }

    /**
     * Runs {@code request} in {@code directory} (or its {@code cwd} resolved against it), with
     * {@code baseEnvironment} under the request's variables and nothing inherited from this JVM.
     *
     * @throws SandboxDestroyedException when {@code directory}, the sandbox, is gone
     * @throws SandboxException {@code CWD_MISSING} when the working directory does not exist,
     *     {@code INTERRUPTED} when the calling thread was interrupted (the command is killed)
     * @throws SandboxExecTransportException when {@code /bin/sh} could not start
     */
    public CommandResult run(CommandRequest request, Path directory, Map<String, String> baseEnvironment) {
        Path cwd = workingDirectory(request, directory, sandboxId);
        EnvironmentVariables.requireValid(request.env(), "Command environment");
        ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", request.commandLine()).directory(cwd.toFile());
        builder.environment().clear();
        builder.environment().putAll(baseEnvironment);
        builder.environment().putAll(request.env());
        OutputCollector stdout = new OutputCollector(request.maxRetainedBytes(), request.onStdout());
        OutputCollector stderr = new OutputCollector(request.maxRetainedBytes(), request.onStderr());
        long started = System.nanoTime();
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new SandboxExecTransportException("Could not start /bin/sh in sandbox '" + sandboxId + "': " + e.getMessage(), false, e);
        }
        running.add(process);
        List<OutputPump> pumps = List.of(OutputPump.start(process::getInputStream, stdout, PUMP_THREADS),
                OutputPump.start(process::getErrorStream, stderr, PUMP_THREADS));
        try {
            closeInput(process);
            boolean finished = awaitExit(process, request.timeout());
            if (!finished) {
                killTree(process.toHandle());
                process.waitFor();
            }
            long deadline = System.nanoTime() + OUTPUT_GRACE.toNanos();
            for (OutputPump pump : pumps) {
                pump.awaitEnd(deadline);
            }
            pumps.forEach(OutputPump::detach);
            stdout.finish();
            stderr.finish();
            return new CommandResult(finished ? process.exitValue() : CommandResult.TIMEOUT_EXIT_CODE, stdout.text(), stderr.text(),
                    Duration.ofNanos(System.nanoTime() - started), !finished, stdout.truncated(), stderr.truncated(),
                    request.commandLine());
        } catch (InterruptedException e) {
            killTree(process.toHandle());
            Thread.currentThread().interrupt();
            throw new SandboxException(StandardErrorCode.INTERRUPTED, "The command in sandbox '" + sandboxId + "' was interrupted and killed.", e);
        } finally {
            pumps.forEach(OutputPump::detach);
            running.remove(process);
        }
    }

    /**
     * The directory a command of {@code request} runs in: its {@code cwd} resolved against the
     * sandbox's {@code directory} (an absolute one as is), or {@code directory} itself.
     *
     * @throws SandboxDestroyedException when the sandbox's {@code directory} itself is gone
     * @throws SandboxException {@link CommandRequest#cwdMissing} when the working directory does not exist
     */
    public static Path workingDirectory(CommandRequest request, Path directory, String sandboxId) {
        if (!Files.isDirectory(directory)) {
            throw new SandboxDestroyedException("The directory " + directory + " of sandbox '" + sandboxId + "' no longer exists.");
        }
        Path cwd = request.cwd().map(directory::resolve).orElse(directory);
        if (!Files.isDirectory(cwd)) {
            throw CommandRequest.cwdMissing(cwd.toString(), sandboxId);
        }
        return cwd;
    }

    /** Kills every command this runner is running, each with its whole process tree. */
    public void killAll() {
        running.forEach(process -> killTree(process.toHandle()));
    }

    /**
     * Kills {@code root} and every process it started. The descendants are collected before {@code
     * root} dies (then they are re-parented and no longer found under it); the shell goes first, so
     * it cannot report a normal exit because its children died.
     */
    private static void killTree(ProcessHandle root) {
        List<ProcessHandle> tree = root.descendants().toList();
        root.destroyForcibly();
        tree.forEach(ProcessHandle::destroyForcibly);
    }

    private static boolean awaitExit(Process process, Optional<Duration> timeout) throws InterruptedException {
        if (timeout.isEmpty()) {
            process.waitFor();
            return true;
        }
        return process.waitFor(timeout.get().toNanos(), TimeUnit.NANOSECONDS);
    }

    private static void closeInput(Process process) {
        try {
            process.getOutputStream().close();
        } catch (IOException ignored) {
            // Commands get no input; a stdin that is already gone is just as good.
        }
    }
}
