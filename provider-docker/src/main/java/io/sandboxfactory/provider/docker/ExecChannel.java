package io.sandboxfactory.provider.docker;

import com.github.dockerjava.api.DockerClient;
import io.sandboxfactory.api.SandboxExecTransportException;
import io.sandboxfactory.api.support.Polling;
import io.sandboxfactory.provider.support.CommandScripts;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.StreamType;

import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One long-lived exec in a container running the {@link ChannelProtocol} server, attached with
 * stdin and {@code Tty=false} so the engine keeps stdout and stderr apart. It carries one command
 * at a time: {@link #submit} writes a request and routes the server's output to that command's
 * {@link ChannelReply} until {@link #release}.
 *
 * <p>Once the stream ends or fails, or the server writes output no request explains, the channel
 * is broken for good ({@link #isBroken()}); the command in flight fails with the cause. {@link
 * #requestTaken} tells whether any byte of a request left this process, which decides whether a
 * failed command may have run; if one did, {@link #serverEnded} and the server's trace (see {@link
 * ChannelProtocol}) can still prove that the server never read it.
 */
final class ExecChannel implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ExecChannel.class.getName());

    private final String containerId;
    private final String token = CommandScripts.newToken();
    private final RequestFeed feed = new RequestFeed();
    private final Frames frames = new Frames();
    private final CountDownLatch ready = new CountDownLatch(1);
    private final Object lock = new Object();
    private byte[] readyBytes = new byte[0];
    private boolean isReady;
    private ChannelReply current;
    private long currentRequestStart;
    private volatile Throwable broken;
    private volatile boolean transportFailed;
    private volatile String execId;

    private ExecChannel(String containerId) {
        this.containerId = containerId;
    }

    /**
     * Starts the server in {@code containerId} and waits until it is ready. Empty when the server
     * ended or was not ready within {@code wait} (such as in an image without {@code setsid} or
     * {@code mkfifo}); throws when the engine or the connection failed. Either way no request was
     * sent.
     */
    static Optional<ExecChannel> open(DockerClient client, String containerId, Duration wait) throws InterruptedException {
        ExecChannel channel = new ExecChannel(containerId);
        try {
            String execId = client.execCreateCmd(containerId)
                    .withCmd(ChannelProtocol.serverCommand(channel.token).toArray(String[]::new))
                    .withAttachStdin(true)
                    .withAttachStdout(true)
                    .withAttachStderr(true)
                    .withTty(false)
                    .exec()
                    .getId();
            channel.execId = execId;
            client.execStartCmd(execId).withDetach(false).withTty(false).withStdIn(channel.feed).exec(channel.frames);
        } catch (RuntimeException e) {
            channel.close();
            throw e;
        }
        boolean ready = channel.ready.await(wait.toNanos(), TimeUnit.NANOSECONDS) && !channel.isBroken();
        Throwable cause = channel.broken;
        if (ready) {
            return Optional.of(channel);
        }
        channel.close();
        if (channel.transportFailed) {
            throw new SandboxExecTransportException("The command channel lost its connection while starting: "
                    + DockerFailures.message(cause), false, cause);
        }
        return Optional.empty();
    }

    /** The container the server runs in. */
    String containerId() {
        return containerId;
    }

    /** The token naming the server's directory and trace in the container. */
    String token() {
        return token;
    }

    /**
     * Whether the engine reports the server's exec as exited, asking for up to {@code wait}: a
     * server whose stream ended has usually just exited. False when the engine cannot tell.
     */
    boolean serverEnded(DockerClient client, Duration wait) {
        try {
            return Polling.until(wait, Duration.ofMillis(50), () -> Boolean.FALSE.equals(client.inspectExecCmd(execId).exec().isRunning()));
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Whether the channel can no longer carry commands. */
    boolean isBroken() {
        return broken != null;
    }

    /**
     * Sends {@code request} and routes the output to {@code reply}. False when the channel is
     * already broken: then nothing was sent.
     */
    boolean submit(ChannelReply reply, byte[] request) {
        synchronized (lock) {
            if (broken != null || current != null) {
                return false;
            }
            current = reply;
            currentRequestStart = feed.offered();
            feed.offer(request);
            return true;
        }
    }

    /** Whether any byte of the request of {@code reply} was handed to the engine connection. */
    boolean requestTaken(ChannelReply reply) {
        synchronized (lock) {
            return reply == current && feed.taken() > currentRequestStart;
        }
    }

    /** Ends the routing to {@code reply}; the channel takes the next request. */
    void release(ChannelReply reply) {
        synchronized (lock) {
            if (current == reply) {
                current = null;
            }
        }
    }

    /** Closes the connection; the server reads end of input and exits once its command is done. */
    @Override
    public void close() {
        breakWith(new IOException("The command channel was closed."));
        feed.close();
        frames.close();
    }

    /** The container stopped under the channel: the command in flight fails as if the stream had ended. */
    void containerStopped() {
        breakWith(new IOException("The container stopped; the command channel went with it."));
        close();
    }

    private void breakWith(Throwable cause) {
        ChannelReply failed;
        synchronized (lock) {
            if (broken == null) {
                broken = cause;
            }
            failed = current;
        }
        ready.countDown();
        if (failed != null) {
            failed.fail(cause);
        }
    }

    private void onFrame(Frame frame) {
        byte[] payload = frame.getPayload();
        if (payload == null || payload.length == 0) {
            return;
        }
        ChannelReply reply;
        synchronized (lock) {
            if (!isReady) {
                acceptReady(frame, payload);
                return;
            }
            reply = current;
        }
        boolean accepted = switch (frame.getStreamType()) {
            case STDOUT, RAW -> reply != null && reply.onStdout(payload);
            case STDERR -> reply != null && reply.onStderr(payload);
            default -> true;
        };
        if (!accepted) {
            LOG.log(System.Logger.Level.WARNING, "The command channel in container {0} wrote output no request explains;"
                    + " dropping the channel.", containerId);
            close();
        }
    }

    private void acceptReady(Frame frame, byte[] payload) {
        byte[] expected = ChannelProtocol.ready();
        byte[] sofar = Arrays.copyOf(readyBytes, readyBytes.length + payload.length);
        System.arraycopy(payload, 0, sofar, readyBytes.length, payload.length);
        boolean stdout = frame.getStreamType() != StreamType.STDERR;
        if (!stdout || sofar.length > expected.length || !Arrays.equals(sofar, 0, sofar.length, expected, 0, sofar.length)) {
            broken = new IOException("The command channel started with unexpected output.");
            ready.countDown();
            return;
        }
        readyBytes = sofar;
        if (sofar.length == expected.length) {
            isReady = true;
            ready.countDown();
        }
    }

    /** The server's output; closing it drops the connection. */
    private final class Frames implements ResultCallback<Frame> {
        private volatile Closeable upstream;
        private volatile boolean closed;

        @Override
        public void onStart(Closeable closeable) {
            upstream = closeable;
            if (closed) {
                ExecStream.closeQuietly(closeable);
            }
        }

        @Override
        public void onNext(Frame frame) {
            if (frame != null && !closed) {
                onFrame(frame);
            }
        }

        @Override
        public void onError(Throwable throwable) {
            transportFailed = true;
            breakWith(throwable);
        }

        @Override
        public void onComplete() {
            breakWith(new IOException("The command channel's stream ended."));
        }

        @Override
        public void close() {
            closed = true;
            Closeable c = upstream;
            if (c != null) {
                ExecStream.closeQuietly(c);
            }
        }
    }

    @Override
    public String toString() {
        return "ExecChannel[container=" + containerId + (isBroken() ? ", broken" : "") + "]";
    }
}
