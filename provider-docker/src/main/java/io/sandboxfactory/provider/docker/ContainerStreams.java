package io.sandboxfactory.provider.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.StreamType;
import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.SandboxExecTransportException;
import io.sandboxfactory.api.capability.StreamingSandbox.SandboxStream;
import io.sandboxfactory.provider.support.FramedInput;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A {@link SandboxStream} into a container: an exec attached with stdin and {@code Tty=false}, so its
 * stdout arrives in frames of its own and stderr is dropped. docker-java never half-closes an
 * attach's connection, so the program's input is framed ({@link FramedInput}) and ends with the frames.
 */
final class ContainerStreams implements SandboxStream, ResultCallback<Frame> {

    private static final byte[] END = new byte[0];

    private final RequestFeed feed = new RequestFeed();
    private final LinkedBlockingQueue<byte[]> frames = new LinkedBlockingQueue<>();
    private final OutputStream input = new FramedInput(new Input());
    private final InputStream output = new Output();
    private volatile Closeable upstream;
    private volatile boolean closed;

    private ContainerStreams() {
    }

    /** Starts {@code argv} in container {@code containerId} of session {@code sessionId}. */
    static SandboxStream open(DockerClient client, String containerId, List<String> argv, String sessionId) {
        ContainerStreams stream = new ContainerStreams();
        String execId;
        try {
            execId = client.execCreateCmd(containerId).withCmd(FramedInput.decoding(argv).toArray(String[]::new)).withAttachStdin(true)
                    .withAttachStdout(true).withAttachStderr(false).withTty(false).exec().getId();
        } catch (RuntimeException e) {
            if (DockerFailures.isNotFound(e) || DockerFailures.isConflict(e)) {
                throw new SandboxDestroyedException("Sandbox '" + sessionId + "' is gone: its container is removed or not running ("
                        + DockerFailures.message(e) + ").", e);
            }
            throw new SandboxExecTransportException("Could not start a stream in sandbox '" + sessionId + "': "
                    + DockerFailures.message(e), false, e);
        }
        client.execStartCmd(execId).withDetach(false).withTty(false).withStdIn(stream.feed).exec(stream);
        return stream;
    }

    @Override
    public OutputStream input() {
        return input;
    }

    @Override
    public InputStream output() {
        return output;
    }

    @Override
    public void close() {
        closed = true;
        feed.close();
        frames.add(END);
        Closeable connection = upstream;
        if (connection != null) {
            closeQuietly(connection);
        }
    }

    @Override
    public void onStart(Closeable closeable) {
        upstream = closeable;
        if (closed) {
            closeQuietly(closeable);
        }
    }

    @Override
    public void onNext(Frame frame) {
        if (frame != null && frame.getPayload() != null && frame.getPayload().length > 0
                && (frame.getStreamType() == StreamType.STDOUT || frame.getStreamType() == StreamType.RAW)) {
            // Copied: the transport may reuse a frame's buffer for the next one.
            frames.add(frame.getPayload().clone());
        }
    }

    @Override
    public void onError(Throwable throwable) {
        frames.add(END);
    }

    @Override
    public void onComplete() {
        frames.add(END);
    }

    private static void closeQuietly(Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException | RuntimeException e) {
            // Dropping the connection on purpose.
        }
    }

    /** The exec's stdin: each write is queued for the engine connection's writer. */
    private final class Input extends OutputStream {
        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (closed) {
                throw new IOException("The stream is closed.");
            }
            if (len > 0) {
                feed.offer(Arrays.copyOfRange(b, off, off + len));
            }
        }
    }

    /** The program's stdout, frame by frame. */
    private final class Output extends InputStream {
        private byte[] head;
        private int offset;
        private boolean ended;

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public synchronized int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            while (!ended && (head == null || offset == head.length)) {
                try {
                    head = frames.take();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("Interrupted while reading a sandbox's stream.");
                }
                offset = 0;
                if (head == END) {
                    ended = true;
                    frames.add(END);
                }
            }
            if (ended) {
                return -1;
            }
            int n = Math.min(len, head.length - offset);
            System.arraycopy(head, offset, b, off, n);
            offset += n;
            return n;
        }
    }
}
