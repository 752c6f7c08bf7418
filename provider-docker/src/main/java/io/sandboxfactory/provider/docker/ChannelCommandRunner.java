package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.provider.support.ProviderClosedException;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import io.sandboxfactory.api.support.Polling;
import io.sandboxfactory.provider.support.CommandScripts;
import io.sandboxfactory.provider.support.RemoteCommands;
import io.sandboxfactory.api.CommandRequest;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.support.OutputCollector;
import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.SandboxExecTransportException;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Semaphore;

/**
 * Runs the commands of one sandbox, through its {@link ExecChannel} when it can and otherwise as
 * an exec per command ({@link DockerCommandRunner}), with the same results either way.
 *
 * <p>The channel opens on the first command and serves one command at a time: a command that
 * finds it busy (another thread, or a callback of the running command) runs as an exec of its own.
 * So does a command when the channel cannot open in the container (then it is not tried again in
 * that container), or when the channel turns out broken before the command's request left this
 * process, or when its server has exited without reading the request (its trace is of another
 * one, see {@link ChannelProtocol}): such a command provably never ran. The last case is a server
 * that died between commands (killed from outside, say) before this process saw its stream end.
 * Otherwise a channel that breaks while a command runs is dropped (the next command opens a new
 * one) and the command fails like an exec would: {@link SandboxDestroyedException} when the
 * container is gone or stopped, else {@link SandboxExecTransportException} with {@code
 * opened=true}. A timeout or interrupt kills the command's processes exactly as the exec path
 * does (pid file and marker, see {@link CommandScripts}); the channel stays if the server reports the
 * killed command within {@link #DRAIN_AFTER_KILL}.
 */
final class ChannelCommandRunner implements RemoteCommands<String> {

    private static final System.Logger LOG = System.getLogger(ChannelCommandRunner.class.getName());

    private static final Duration OPEN_WAIT = Duration.ofSeconds(10);
    private static final Duration GONE_CHECK = Duration.ofSeconds(2);
    private static final Duration CHECK_PAUSE = Duration.ofMillis(50);
    private static final Duration TRACE_WAIT = Duration.ofSeconds(10);
    /** The server needs up to its grace to report a killed command whose children held the output. */
    private static final Duration DRAIN_AFTER_KILL = Duration.ofSeconds(5 + ChannelProtocol.GRACE_SECONDS);

    private final DockerConnection connection;
    private final String sessionId;
    private final DockerCommandRunner execPath;
    private final boolean enabled;
    private final Semaphore idle = new Semaphore(1);
    private final Object channelLock = new Object();
    private ExecChannel channel;
    private String unsupportedIn;

    ChannelCommandRunner(DockerConnection connection, DockerCommandRunner execPath, boolean enabled) {
        this.connection = connection;
        this.sessionId = execPath.defaults().sessionId();
        this.execPath = execPath;
        this.enabled = enabled;
    }

    /** The provider's variables, under a command's own. */
    Map<String, String> baseEnv() {
        return execPath.defaults().baseEnv();
    }

    @Override
    public CommandResult run(String containerId, CommandRequest request) {
        if (!enabled || !ChannelProtocol.sendable(request.commandLine()) || !idle.tryAcquire()) {
            return execPath.run(containerId, request);
        }
        try {
            return runOnChannel(containerId, request);
        } finally {
            idle.release();
        }
    }

    /** Drops the channel; the next command opens a new one. For stop and destroy. */
    void closeChannel() {
        ExecChannel toClose;
        synchronized (channelLock) {
            toClose = channel;
            channel = null;
            unsupportedIn = null;
        }
        if (toClose != null) {
            toClose.close();
        }
    }

    private CommandResult runOnChannel(String containerId, CommandRequest request) {
        String cwd = execPath.defaults().cwd(request);
        String token = CommandScripts.newToken();
        List<String> env = execPath.environment(request.env(), token);
        long started = System.nanoTime();
        DockerClient client;
        try {
            client = connection.client();
        } catch (ProviderClosedException closed) {
            return execPath.run(containerId, request);
        }
        Optional<ExecChannel> open = channel(client, containerId);
        if (open.isEmpty()) {
            return execPath.run(containerId, request);
        }
        ExecChannel ch = open.get();
        String nonce = CommandScripts.newToken();
        String signal = CommandScripts.missingDirectorySignal(token);
        OutputCollector stdout = new OutputCollector(request.maxRetainedBytes(), request.onStdout());
        OutputCollector stderr = new OutputCollector(request.maxRetainedBytes(), request.onStderr());
        ChannelReply reply = new ChannelReply(nonce, signal, stdout, stderr);
        byte[] line = ChannelProtocol.request(nonce, CommandScripts.pidFile(token), cwd, request.commandLine(), signal, env);
        if (!ch.submit(reply, line)) {
            drop(ch);
            return execPath.run(containerId, request);
        }
        try {
            boolean timedOut;
            try {
                timedOut = !awaitReply(client, containerId, ch, reply, request.timeout());
            } catch (InterruptedException e) {
                // As on a timeout, and as the exec path does: wait until the server reports the killed
                // command, that is until the processes holding its output are gone (else drop the channel).
                stopCommand(client, containerId, token, ch, reply);
                Thread.currentThread().interrupt();
                throw new SandboxException(StandardErrorCode.INTERRUPTED, "Command in sandbox '" + sessionId
                        + "' was interrupted; it was killed inside the container.", e);
            }
            if (timedOut) {
                stopCommand(client, containerId, token, ch, reply);
            } else if (reply.failure().isPresent()) {
                boolean taken = ch.requestTaken(reply);
                drop(ch);
                if (!taken || neverRead(client, containerId, ch, nonce)) {
                    return execPath.run(containerId, request);
                }
                throw lost(client, containerId, reply.failure().get());
            }
            if (!timedOut && reply.missingDirectory()) {
                throw CommandRequest.cwdMissing(cwd, sessionId);
            }
            stdout.finish();
            stderr.finish();
            int exitCode = timedOut ? CommandResult.TIMEOUT_EXIT_CODE : reply.exitCode().orElseThrow();
            return new CommandResult(exitCode, stdout.text(), stderr.text(), Duration.ofNanos(System.nanoTime() - started),
                    timedOut, stdout.truncated(), stderr.truncated(), request.commandLine());
        } finally {
            ch.release(reply);
        }
    }

    /** Waits for {@code reply}; a container that stopped meanwhile breaks the channel, failing the reply. False when the timeout passed first. */
    private static boolean awaitReply(DockerClient client, String containerId, ExecChannel ch, ChannelReply reply,
                                      Optional<Duration> timeout) throws InterruptedException {
        return switch (LivenessWait.await(client, containerId, timeout, reply::await)) {
            case ENDED -> true;
            case TIMED_OUT -> false;
            case CONTAINER_STOPPED -> {
                ch.containerStopped(); // the reply now carries the failure
                yield true;
            }
        };
    }

    /** The open channel to {@code containerId}, opening one if needed; empty when the channel cannot run there. */
    private Optional<ExecChannel> channel(DockerClient client, String containerId) {
        synchronized (channelLock) {
            if (channel != null && (channel.isBroken() || !channel.containerId().equals(containerId))) {
                channel.close();
                channel = null;
            }
            if (channel != null) {
                return Optional.of(channel);
            }
            if (containerId.equals(unsupportedIn)) {
                return Optional.empty();
            }
        }
        ExecChannel opened;
        try {
            Optional<ExecChannel> started = ExecChannel.open(client, containerId, OPEN_WAIT);
            if (started.isEmpty()) {
                // The server itself gave up (an image without the tools it needs): keep this container on the exec path.
                LOG.log(System.Logger.Level.WARNING, "The command channel cannot run in sandbox ''{0}''; its commands"
                        + " run as one exec each until it stops.", sessionId);
                synchronized (channelLock) {
                    unsupportedIn = containerId;
                }
                return Optional.empty();
            }
            opened = started.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (RuntimeException e) {
            // The engine or the connection failed (a gone container among others): the exec path
            // meets the same failure and reports it as usual; the next command tries the channel again.
            return Optional.empty();
        }
        synchronized (channelLock) {
            if (channel != null) {
                channel.close();
            }
            channel = opened;
            return Optional.of(opened);
        }
    }

    private void drop(ExecChannel ch) {
        synchronized (channelLock) {
            if (channel == ch) {
                channel = null;
            }
        }
        ch.close();
    }

    /**
     * Whether the server of the broken channel {@code ch} provably never read request {@code
     * nonce}: the engine says it exited, so it reads nothing more, and its trace is of another
     * request. Any doubt (the engine or the container cannot be asked, no trace) counts as read.
     */
    private boolean neverRead(DockerClient client, String containerId, ExecChannel ch, String nonce) {
        if (!ch.serverEnded(client, GONE_CHECK)) {
            return false;
        }
        try {
            CommandResult listing = execPath.run(containerId, new CommandRequest(ChannelProtocol.listDirectory(ch.token()),
                    Map.of(), Optional.of("/"), Optional.of(TRACE_WAIT), Optional.empty(), Optional.empty(), 64 * 1024));
            return listing.exitCode() == 0 && ChannelProtocol.neverRead(listing.stdout(), nonce);
        } catch (RuntimeException e) {
            return false;
        }
    }

    private void stopCommand(DockerClient client, String containerId, String token, ExecChannel ch, ChannelReply reply) {
        execPath.kill(client, containerId, token);
        boolean reported;
        try {
            reported = reply.await(Optional.of(DRAIN_AFTER_KILL)) && reply.failure().isEmpty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            reported = false;
        }
        if (!reported) {
            LOG.log(System.Logger.Level.WARNING, "A killed command in sandbox ''{0}'' was not reported within {1};"
                    + " dropping its command channel.", sessionId, DRAIN_AFTER_KILL);
            reply.abandon();
            drop(ch);
        }
    }

    private SandboxException lost(DockerClient client, String containerId, Throwable cause) {
        if (containerGone(client, containerId)) {
            return new SandboxDestroyedException("Sandbox '" + sessionId + "' is gone: its container is removed or not"
                    + " running (" + DockerFailures.message(cause) + "); the next start restarts it or makes a fresh one.", cause);
        }
        return new SandboxExecTransportException("Lost the connection to the command in sandbox '" + sessionId
                + "' on the Docker engine at " + connection.host() + "; it may have run: " + DockerFailures.message(cause),
                true, cause);
    }

    /**
     * Whether the container is removed or not running. A stopping container ends the channel's
     * stream a moment before the engine records it as exited, so a running one is asked again briefly.
     */
    private static boolean containerGone(DockerClient client, String containerId) {
        try {
            return Polling.until(GONE_CHECK, CHECK_PAUSE, () -> {
                InspectContainerResponse container = client.inspectContainerCmd(containerId).exec();
                return container.getState() == null || !Boolean.TRUE.equals(container.getState().getRunning());
            });
        } catch (RuntimeException e) {
            return DockerFailures.isNotFound(e);
        }
    }
}
