package io.sandboxfactory.cli.daemon;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the {@code factory} client and the factory daemon say over the daemon's socket. The client
 * sends one request (its arguments, working directory and environment); the daemon answers with
 * frames: {@link #STARTED} once it runs the request (before that, nothing has run and the client may
 * run the command itself), then the command's stdout and stderr bytes, then its exit code. The
 * client closing its end cancels the command.
 */
final class DaemonProtocol {

    /** "SFD" and the protocol version. */
    static final int MAGIC = 0x53464401;

    static final byte STARTED = 0;
    static final byte STDOUT = 1;
    static final byte STDERR = 2;
    static final byte EXIT = 3;
    /** The daemon will not run this request (shutting down, another version): the client runs it itself. */
    static final byte DECLINED = 4;

    private DaemonProtocol() {
    }

    record Request(List<String> args, String workingDirectory, Map<String, String> environment) {
    }

    record Frame(byte type, byte[] payload) {
        int exitCode() {
            return ByteBuffer.wrap(payload).getInt();
        }
    }

    static void writeRequest(DataOutputStream out, Request request) throws IOException {
        out.writeInt(MAGIC);
        out.writeInt(request.args().size());
        for (String arg : request.args()) {
            writeString(out, arg);
        }
        writeString(out, request.workingDirectory());
        out.writeInt(request.environment().size());
        for (Map.Entry<String, String> variable : request.environment().entrySet()) {
            writeString(out, variable.getKey());
            writeString(out, variable.getValue());
        }
        out.flush();
    }

    /** The request, or {@code null} when the peer does not speak this version of the protocol. */
    static Request readRequest(DataInputStream in) throws IOException {
        if (in.readInt() != MAGIC) {
            return null;
        }
        int count = in.readInt();
        List<String> args = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            args.add(readString(in));
        }
        String workingDirectory = readString(in);
        int variables = in.readInt();
        Map<String, String> environment = new LinkedHashMap<>();
        for (int i = 0; i < variables; i++) {
            environment.put(readString(in), readString(in));
        }
        return new Request(args, workingDirectory, environment);
    }

    static void writeFrame(DataOutputStream out, byte type, byte[] payload, int offset, int length) throws IOException {
        out.writeByte(type);
        out.writeInt(length);
        out.write(payload, offset, length);
        out.flush();
    }

    static void writeExit(DataOutputStream out, int code) throws IOException {
        writeFrame(out, EXIT, ByteBuffer.allocate(4).putInt(code).array(), 0, 4);
    }

    /** The next frame, or {@code null} at the end of the stream. */
    static Frame readFrame(DataInputStream in) throws IOException {
        int type = in.read();
        if (type < 0) {
            return null;
        }
        int length = in.readInt();
        byte[] payload = new byte[length];
        in.readFully(payload);
        return new Frame((byte) type, payload);
    }

    private static void writeString(DataOutputStream out, String value) throws IOException {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static String readString(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > 16 * 1024 * 1024) {
            throw new IOException("A string of " + length + " bytes in a daemon request is out of range.");
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /*
     * Streams over the channel itself: the java.nio.channels.Channels adapters hold the channel's
     * blocking lock while they wait, so a read blocked for cancellation would stall every write.
     */

    static InputStream input(SocketChannel channel) {
        return new InputStream() {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                int n = read(one, 0, 1);
                return n < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (len == 0) {
                    return 0;
                }
                int n;
                do {
                    n = channel.read(ByteBuffer.wrap(b, off, len));
                } while (n == 0);
                return n;
            }
        };
    }

    static OutputStream output(SocketChannel channel) {
        // An anonymous class, not a lambda: this is on the client's start-up path.
        return stream(new Sink() {
            @Override
            public void write(byte[] bytes, int offset, int length) throws IOException {
                ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, length);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
            }
        });
    }

    /** Where a {@link #stream} sends each write, whole. */
    interface Sink {
        void write(byte[] bytes, int offset, int length) throws IOException;
    }

    /** An output stream that hands every write, single bytes included, to {@code sink}. */
    static OutputStream stream(Sink sink) {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                sink.write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                sink.write(b, off, len);
            }
        };
    }

    /** Reads until the end of the stream; true when it ended cleanly there. */
    static boolean drained(InputStream in) {
        try {
            return in.read() < 0;
        } catch (EOFException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
