package io.sandboxfactory.provider.kubernetes;

import io.fabric8.kubernetes.client.dsl.ExecWatch;
import io.sandboxfactory.api.capability.StreamingSandbox.SandboxStream;
import io.sandboxfactory.provider.support.FramedInput;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;

/**
 * A {@link SandboxStream} into a pod: an exec with stdin and stdout over the API server's
 * websocket. The websocket protocol (v4) cannot end a program's input, so the input is framed
 * ({@link FramedInput}).
 *
 * @param input the exec's stdin, framed
 * @param output the exec's stdout
 * @param watch the exec, closed with the stream
 */
record PodStreams(OutputStream input, InputStream output, ExecWatch watch) implements SandboxStream {

    /** Starts {@code argv} in the sandbox's container of {@code pod}, behind the frames' decoder. */
    static SandboxStream open(PodCommandRunner runner, String pod, List<String> argv) {
        String[] command = FramedInput.decoding(argv).toArray(String[]::new);
        ExecWatch watch = runner.exec(pod, "open a stream", container -> container.redirectingInput().redirectingOutput()
                .writingError(OutputStream.nullOutputStream()).exec(command));
        InputStream output = new FilterInputStream(watch.getOutput()) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                // fabric8's stream asserts a read of at least one byte; InputStream.readNBytes asks for none once its buffer is full.
                return len == 0 ? 0 : super.read(b, off, len);
            }
        };
        return new PodStreams(new FramedInput(watch.getInput()), output, watch);
    }

    @Override
    public void close() {
        watch.close();
    }
}
