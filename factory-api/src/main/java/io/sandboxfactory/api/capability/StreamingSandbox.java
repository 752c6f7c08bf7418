package io.sandboxfactory.api.capability;

import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.api.SandboxException;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;

/**
 * Optional byte streams into a running sandbox (declare {@link SandboxCapability#STREAMS}): a
 * program started in the sandbox whose standard input and output are the caller's to write and
 * read for as long as the caller holds them. The factory reaches a sandbox that sees no host
 * directory (a Kubernetes pod) or cannot open a host FIFO (gVisor) this way: its Git gateway and
 * egress channel are bridged through such streams, so the sandbox needs no network and no secret.
 *
 * <p>Unlike a command ({@code executeCommand}), a stream has no timeout, no retained output and no
 * exit code: the program runs until its input ends and it exits, or the caller closes the stream.
 *
 * @since 0.1.0
 */
public interface StreamingSandbox {

    /**
     * Starts {@code argv} (a program and its arguments, run as the sandbox's commands are, in its
     * default directory and without the session's environment) with its standard input and output
     * connected to the returned stream; its standard error is discarded. The sandbox is running, or
     * its start hooks are: a stream never starts it ({@code MastraSandbox.acquiredHandle()} gives an
     * implementation the handle so).
     *
     * @throws io.sandboxfactory.api.SandboxNotReadyException when the sandbox is not running
     * @throws io.sandboxfactory.api.SandboxDestroyedException when its physical sandbox is gone
     * @throws SandboxException when the program could not be started (nothing runs then)
     */
    SandboxStream openStream(List<String> argv);

    /** A program running in a sandbox, reached through its standard input and output. */
    interface SandboxStream extends AutoCloseable {

        /**
         * The program's standard input. What is written is delivered in order once flushed; closing
         * it ends the program's input (it reads end of file) and leaves its output readable.
         */
        OutputStream input();

        /** The program's standard output; ends once the program has exited, or the stream is closed. */
        InputStream output();

        /** Ends the stream: the program's input ends and its output is no longer read. Idempotent. */
        @Override
        void close();
    }
}
