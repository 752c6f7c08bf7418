package io.sandboxfactory.core.internal.channel;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/** The header line a channel's client sends first: printable ASCII words separated by single spaces. */
final class ChannelHeader {

    /** The longest header line, in bytes. */
    static final int MAX = 512;
    private static final Pattern HEADER = Pattern.compile("[\\x21-\\x7e]+( [\\x21-\\x7e]+)*");

    private ChannelHeader() {
    }

    /**
     * Reads the header from {@code in} one byte at a time (what follows it is the handler's); null,
     * after one line of refusal on {@code out}, when it is not a header.
     *
     * @throws ClosedChannelException when {@code in} ends first
     */
    static String read(InputStream in, OutputStream out) throws IOException {
        byte[] line = new byte[MAX];
        int length = 0;
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new ClosedChannelException();
            }
            if (b == '\n') {
                break;
            }
            if (length == MAX) {
                refuse(out, "header longer than " + MAX + " bytes");
                return null;
            }
            line[length++] = (byte) b;
        }
        String header = new String(line, 0, length, StandardCharsets.US_ASCII);
        if (!HEADER.matcher(header).matches()) {
            refuse(out, "header is not printable words separated by single spaces");
            return null;
        }
        return header;
    }

    private static void refuse(OutputStream out, String why) throws IOException {
        out.write(("sandbox-factory channel: " + why + "\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }
}
