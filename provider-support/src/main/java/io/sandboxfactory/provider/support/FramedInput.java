package io.sandboxfactory.provider.support;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The input of a stream into a sandbox whose exec cannot end a program's input (a Kubernetes exec
 * over websocket protocol v4; docker-java's attach, which never half-closes its connection): each
 * write goes as its length on a line and then its bytes, and {@link #close} sends a zero length,
 * keeping the connection. {@link #decoding} wraps the program so that a shell in the sandbox takes
 * the frames apart with {@code dd} and pipes the bytes to it; its input ends with the frames. ({@code
 * dd} with {@code iflag=fullblock}, which GNU coreutils and busybox have, reads exactly one frame;
 * without it one byte at a time, slow but exact.)
 */
public final class FramedInput extends OutputStream {

    private static final String DECODER = """
            full=; [ "$(printf x | dd bs=1 count=1 iflag=fullblock 2>/dev/null)" = x ] && full=1
            while IFS= read -r n; do
              case $n in ''|*[!0-9]*) break ;; esac
              [ "$n" -gt 0 ] || break
              if [ -n "$full" ]; then dd bs="$n" count=1 iflag=fullblock 2>/dev/null; else dd bs=1 count="$n" 2>/dev/null; fi || break
            done | "$@"
            """;

    private final OutputStream raw;
    private boolean ended;

    /** Frames what is written onto {@code raw}, the exec's own stdin. */
    public FramedInput(OutputStream raw) {
        this.raw = Objects.requireNonNull(raw, "raw");
    }

    /** {@code argv} run behind the decoder: what to exec so that the program reads this stream's bytes. */
    public static List<String> decoding(List<String> argv) {
        List<String> command = new ArrayList<>(List.of("sh", "-c", DECODER, "sh"));
        command.addAll(argv);
        return command;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (ended) {
            throw new IOException("The stream's input is closed.");
        }
        if (len == 0) {
            return;
        }
        byte[] header = (len + "\n").getBytes(StandardCharsets.US_ASCII);
        byte[] frame = new byte[header.length + len];
        System.arraycopy(header, 0, frame, 0, header.length);
        System.arraycopy(b, off, frame, header.length, len);
        raw.write(frame);
        raw.flush();
    }

    @Override
    public synchronized void flush() throws IOException {
        if (!ended) {
            raw.flush();
        }
    }

    /** Sends the end frame; the exec's connection stays open (closing the stream closes it). */
    @Override
    public synchronized void close() throws IOException {
        if (ended) {
            return;
        }
        ended = true;
        raw.write("0\n".getBytes(StandardCharsets.US_ASCII));
        raw.flush();
    }
}
