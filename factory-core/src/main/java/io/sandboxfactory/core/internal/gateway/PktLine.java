package io.sandboxfactory.core.internal.gateway;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** Git's pkt-line framing, for the gateway's own answers. */
final class PktLine {

    private PktLine() {
    }

    /** An {@code ERR} packet: the client prints {@code fatal: remote error: <message>} and stops. */
    static void error(OutputStream out, String message) throws IOException {
        byte[] payload = ("ERR " + message.replace('\n', ' ') + "\n").getBytes(StandardCharsets.UTF_8);
        out.write(String.format("%04x", payload.length + 4).getBytes(StandardCharsets.US_ASCII));
        out.write(payload);
        out.flush();
    }
}
