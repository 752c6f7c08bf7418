package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.provider.support.ProviderClosedException;
import io.sandboxfactory.api.support.EnvironmentVariables;
import io.sandboxfactory.provider.support.CommandDefaults;
import io.sandboxfactory.provider.support.CommandScripts;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.InspectExecResponse;
import com.github.dockerjava.api.model.Frame;
import io.sandboxfactory.api.CommandRequest;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.support.OutputCollector;
import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.SandboxExecTransportException;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs commands in one container through the Engine API: exec-create, exec-start with the
 * demultiplexed output streamed to the caller, and the exit code from exec-inspect. Three requests
 * per command on the shared connection pool, nothing else. The exec is attached with a stdin this
 * process holds open until the command ended, so the command dies with this process (see {@link
 * CommandScripts#WATCHED_RUN_SCRIPT}).
 *
 * <p>A timeout (or an interrupt of the calling thread) kills the command inside the container with
 * a second exec (see {@link CommandScripts}), then reports exit code 124 and {@code timedOut}. Failures
 * say whether the command may have run: a container that is gone or stopped before the exec exists
 * is a {@link SandboxDestroyedException}; a transport failure before the exec was created is a
 * {@link SandboxExecTransportException} with {@code opened=false}, after it was started {@code
 * opened=true}.
 *
 * @param connection the engine connection of the sandbox's provider instance
 * @param defaults what every command here starts from
 */
record DockerCommandRunner(DockerConnection connection, CommandDefaults defaults) {

    private static final System.Logger LOG = System.getLogger(DockerCommandRunner.class.getName());

    /** The engine records the exit code just after the stream ends; this bounds the wait for it. */
    private static final Duration EXIT_CODE_WAIT = Duration.ofSeconds(10);

    private String sessionId() {
        return defaults.sessionId();
    }

    CommandResult run(String containerId, CommandRequest request) {
        String cwd = defaults.cwd(request);
        String token = CommandScripts.newToken();
        List<String> env = environment(request.env(), token);
        long started = System.nanoTime();

        DockerClient client;
        try {
            client = connection.client();
        } catch (ProviderClosedException closed) {
            throw new SandboxExecTransportException("Cannot run a command in sandbox '" + sessionId() + "': "
                    + closed.getMessage(), false, closed);
        }
        String execId = createExec(client, containerId, CommandScripts.runWatchedCommand(token, cwd, request.commandLine()), env);
        OutputCollector stdout = new OutputCollector(request.maxRetainedBytes(), request.onStdout());
        OutputCollector stderr = new OutputCollector(request.maxRetainedBytes(), request.onStderr());
        ExecStream stream = new ExecStream(stdout, stderr, CommandScripts.missingDirectorySignal(token));
        // Held open until the command ended: if this process dies, the engine closes the exec's
        // stdin and the wrapper's watchdog kills the command.
        try (RequestFeed lifeline = new RequestFeed()) {
            try {
                client.execStartCmd(execId).withDetach(false).withTty(false).withStdIn(lifeline).exec(stream);
            } catch (RuntimeException e) {
                throw startFailure(e);
            }
            boolean timedOut;
            try {
                LivenessWait.Outcome outcome = LivenessWait.await(client, containerId, request.timeout(), stream::await);
                if (outcome == LivenessWait.Outcome.CONTAINER_STOPPED) {
                    stream.close();
                    throw gone(new IOException("The container stopped while the command ran."));
                }
                timedOut = outcome == LivenessWait.Outcome.TIMED_OUT;
            } catch (InterruptedException e) {
                stopCommand(client, containerId, token, stream);
                Thread.currentThread().interrupt();
                throw new SandboxException(StandardErrorCode.INTERRUPTED, "Command in sandbox '" + sessionId()
                        + "' was interrupted; it was killed inside the container.", e);
            }
            if (timedOut) {
                stopCommand(client, containerId, token, stream);
            } else if (stream.failure().isPresent()) {
                throw startFailure(stream.failure().get());
            }
            if (stream.missingDirectory()) {
                throw CommandRequest.cwdMissing(cwd, sessionId());
            }
            stdout.finish();
            stderr.finish();
            int exitCode = timedOut ? CommandResult.TIMEOUT_EXIT_CODE : exitCode(client, execId);
            return new CommandResult(exitCode, stdout.text(), stderr.text(), Duration.ofNanos(System.nanoTime() - started),
                    timedOut, stdout.truncated(), stderr.truncated(), request.commandLine());
        }
    }

    /** The variables of command {@code token} as {@code NAME=VALUE}, as the engine takes them (see {@link CommandDefaults#environment}). */
    List<String> environment(Map<String, String> requestEnv, String token) {
        return defaults.environment(requestEnv, token, EnvironmentVariables::requireValid).entrySet().stream()
                .map(variable -> variable.getKey() + "=" + variable.getValue()).toList();
    }

    private String createExec(DockerClient client, String containerId, List<String> argv, List<String> env) {
        try {
            return client.execCreateCmd(containerId)
                    .withCmd(argv.toArray(String[]::new))
                    .withEnv(env)
                    .withAttachStdin(true)
                    .withAttachStdout(true)
                    .withAttachStderr(true)
                    .withTty(false)
                    .exec()
                    .getId();
        } catch (RuntimeException e) {
            if (DockerFailures.isNotFound(e) || DockerFailures.isConflict(e)) {
                throw gone(e);
            }
            throw new SandboxExecTransportException("Could not create the command in sandbox '" + sessionId()
                    + "' on the Docker engine at " + connection.host() + ": " + DockerFailures.message(e), false, e);
        }
    }

    private SandboxException startFailure(Throwable e) {
        // 404/409 on exec-start: the container went away before the command could start.
        if (DockerFailures.isNotFound(e) || DockerFailures.isConflict(e)) {
            return gone(e);
        }
        return new SandboxExecTransportException("Lost the connection to the command in sandbox '" + sessionId()
                + "' on the Docker engine at " + connection.host() + "; it may have run: " + DockerFailures.message(e), true, e);
    }

    private SandboxDestroyedException gone(Throwable e) {
        return new SandboxDestroyedException("Sandbox '" + sessionId() + "' is gone: its container is removed or not running ("
                + DockerFailures.message(e) + "); the next start restarts it or makes a fresh one.", e);
    }

    private void stopCommand(DockerClient client, String containerId, String token, ExecStream stream) {
        kill(client, containerId, token);
        try {
            if (!stream.await(Optional.of(CommandScripts.DRAIN_AFTER_KILL))) {
                LOG.log(System.Logger.Level.WARNING, "Output of a killed command in sandbox ''{0}'' is still open after {1}; dropping it.",
                        sessionId(), CommandScripts.DRAIN_AFTER_KILL);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            stream.close();
        }
    }

    /**
     * Kills every process of command {@code token} (see {@link CommandScripts#killCommand}) with an exec of its own, as the
     * container's user: the one the command runs as. Root would not do: without {@code CAP_KILL} (every capability is
     * dropped) it may not signal another user's processes, nor read their environment.
     */
    void kill(DockerClient client, String containerId, String token) {
        try {
            String killExec = client.execCreateCmd(containerId)
                    .withCmd(CommandScripts.killCommand(token).toArray(String[]::new))
                    .withAttachStdout(true)
                    .withAttachStderr(true)
                    .withTty(false)
                    .exec()
                    .getId();
            if (!client.execStartCmd(killExec).withDetach(false).withTty(false)
                    .exec(new ResultCallback.Adapter<Frame>())
                    .awaitCompletion(CommandScripts.KILL_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.log(System.Logger.Level.WARNING, "Killing a command in sandbox ''{0}'' did not finish within {1}.",
                        sessionId(), CommandScripts.KILL_WAIT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            if (!DockerFailures.isNotFound(e) && !DockerFailures.isConflict(e)) {
                LOG.log(System.Logger.Level.WARNING, "Could not kill a command in sandbox ''" + sessionId() + "'': "
                        + DockerFailures.message(e), e);
            }
            // A removed or stopped container took the command with it.
        }
    }

    /**
     * The pause before asking for an exit code again: 1, 2, 4 ... ms, then 50 ms however long the
     * engine keeps the exec running (the shift is capped, so no attempt count overflows it).
     */
    static long exitCodePollPauseMillis(int attempt) {
        return Math.min(1L << Math.min(attempt, 6), 50L);
    }

    private int exitCode(DockerClient client, String execId) {
        long deadline = System.nanoTime() + EXIT_CODE_WAIT.toNanos();
        for (int attempt = 0; ; attempt++) {
            InspectExecResponse exec;
            try {
                exec = client.inspectExecCmd(execId).exec();
            } catch (RuntimeException e) {
                throw new SandboxExecTransportException("The command in sandbox '" + sessionId()
                        + "' ran but its exit code could not be read: " + DockerFailures.message(e), true, e);
            }
            if (!Boolean.TRUE.equals(exec.isRunning()) && exec.getExitCodeLong() != null) {
                return exec.getExitCodeLong().intValue();
            }
            if (System.nanoTime() > deadline) {
                throw new SandboxExecTransportException("The command in sandbox '" + sessionId()
                        + "' closed its output but the engine reported no exit code within " + EXIT_CODE_WAIT + ".", true, null);
            }
            try {
                Thread.sleep(exitCodePollPauseMillis(attempt));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SandboxException(StandardErrorCode.INTERRUPTED, "Interrupted while reading the exit code of a command in sandbox '"
                        + sessionId() + "'.", e);
            }
        }
    }
}
