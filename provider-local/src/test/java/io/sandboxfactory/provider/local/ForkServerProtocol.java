package io.sandboxfactory.provider.local;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** The fork server's script and frames, for tests that drive the server over its own protocol. */
final class ForkServerProtocol {

    /** One frame: type, command id, payload. */
    record Frame(char type, int id, String payload) {
    }

    private ForkServerProtocol() {
    }

    static String script() throws IOException {
        try (InputStream in = ForkServer.class.getResourceAsStream("fork-server.pl")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static void send(DataOutputStream out, char type, int id, String payload) throws IOException {
        byte[] bytes = payload.getBytes(StandardCharsets.UTF_8);
        out.writeByte(type);
        out.writeInt(id);
        out.writeInt(bytes.length);
        out.write(bytes);
        out.flush();
    }

    static Frame receive(DataInputStream in) throws IOException {
        char type = (char) in.readUnsignedByte();
        int id = in.readInt();
        return new Frame(type, id, new String(in.readNBytes(in.readInt()), StandardCharsets.UTF_8));
    }
}
