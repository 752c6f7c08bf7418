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
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;

/**
 * A {@link SandboxStream} into a container: an exec attached with stdin and {@code Tty=false}, so its
 * stdout arrives in frames of its own and stderr is dropped. docker-java never half-closes an
 * attach's connection, so the program's input is framed ({@link FramedInput}) and ends with the frames.
 */
final class ContainerStreams implements SandboxStream, ResultCallback<Frame> {

    private final RequestFeed feed = new RequestFeed();
    /** The program's stdout frames, in order; ends once the exec's stream does. */
    private final RequestFeed output = new RequestFeed();
    private final OutputStream input = new FramedInput(new Input());
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
        output.close();
        Closeable connection = upstream;
        if (connection != null) {
            ExecStream.closeQuietly(connection);
        }
    }

    @Override
    public void onStart(Closeable closeable) {
        upstream = closeable;
        if (closed) {
            ExecStream.closeQuietly(closeable);
        }
    }

    @Override
    public void onNext(Frame frame) {
        if (frame != null && frame.getPayload() != null && frame.getPayload().length > 0
                && (frame.getStreamType() == StreamType.STDOUT || frame.getStreamType() == StreamType.RAW)) {
            // Copied: the transport may reuse a frame's buffer for the next one.
            output.offer(frame.getPayload().clone());
        }
    }

    @Override
    public void onError(Throwable throwable) {
        output.finish();
    }

    @Override
    public void onComplete() {
        output.finish();
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
                // FramedInput hands over a frame of its own, whole: queued as it is, not copied again.
                feed.offer(off == 0 && len == b.length ? b : Arrays.copyOfRange(b, off, off + len));
            }
        }
    }
}
