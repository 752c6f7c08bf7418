package io.sandboxfactory.core.egress;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Reads the server name (SNI) from the first bytes a TLS client sends: the ClientHello, which may
 * span several handshake records. Nothing is decrypted; the proxy only compares the name with the
 * {@code CONNECT} host, so a client cannot tunnel to an allowed address while naming another host.
 * Every length is checked against what is there: a truncated or malformed hello is {@link
 * Status#INCOMPLETE} or {@link Status#MALFORMED}, never an exception.
 */
final class ClientHello {

    /** The largest hello read before giving up: a real one is a few KiB. */
    static final int MAX_BYTES = 64 * 1024;

    private static final int HANDSHAKE_RECORD = 22;
    private static final int CLIENT_HELLO = 1;
    private static final int SERVER_NAME_EXTENSION = 0;
    private static final int HOST_NAME = 0;

    /** How far the bytes read so far go. */
    enum Status {
        /** A hello may still follow: read more. */
        INCOMPLETE,
        /** Not a TLS ClientHello, or one whose lengths do not add up. */
        MALFORMED,
        /** A whole ClientHello; {@link Result#serverName()} holds its SNI, if any. */
        COMPLETE
    }

    /**
     * @param status how far the bytes go
     * @param serverName the host name of a complete hello's server_name extension, if it has one
     */
    record Result(Status status, Optional<String> serverName) {
        static final Result INCOMPLETE = new Result(Status.INCOMPLETE, Optional.empty());
        static final Result MALFORMED = new Result(Status.MALFORMED, Optional.empty());
    }

    private ClientHello() {
    }

    /** What the first {@code length} bytes of {@code data} say. */
    static Result parse(byte[] data, int length) {
        ByteArrayOutputStream handshake = new ByteArrayOutputStream();
        int at = 0;
        while (true) {
            if (handshake.size() >= 4) {
                byte[] message = handshake.toByteArray();
                if ((message[0] & 0xff) != CLIENT_HELLO) {
                    return Result.MALFORMED;
                }
                int bodyLength = u24(message, 1);
                if (message.length >= 4 + bodyLength) {
                    return body(message, 4, 4 + bodyLength);
                }
            }
            if (length - at < 5) {
                return Result.INCOMPLETE;
            }
            if ((data[at] & 0xff) != HANDSHAKE_RECORD || (data[at + 1] & 0xff) != 3) {
                return Result.MALFORMED;
            }
            int recordLength = u16(data, at + 3);
            if (recordLength == 0) {
                return Result.MALFORMED;
            }
            if (length - at - 5 < recordLength) {
                return Result.INCOMPLETE;
            }
            handshake.write(data, at + 5, recordLength);
            at += 5 + recordLength;
        }
    }

    /** The ClientHello body between {@code from} and {@code end}. */
    private static Result body(byte[] m, int from, int end) {
        int at = from + 2 + 32;
        if (at + 1 > end) {
            return Result.MALFORMED;
        }
        at += 1 + (m[at] & 0xff);
        if (at + 2 > end) {
            return Result.MALFORMED;
        }
        at += 2 + u16(m, at);
        if (at + 1 > end) {
            return Result.MALFORMED;
        }
        at += 1 + (m[at] & 0xff);
        if (at == end) {
            return new Result(Status.COMPLETE, Optional.empty());
        }
        if (at + 2 > end) {
            return Result.MALFORMED;
        }
        int extensionsEnd = at + 2 + u16(m, at);
        at += 2;
        if (extensionsEnd > end) {
            return Result.MALFORMED;
        }
        while (at + 4 <= extensionsEnd) {
            int type = u16(m, at);
            int size = u16(m, at + 2);
            at += 4;
            if (at + size > extensionsEnd) {
                return Result.MALFORMED;
            }
            if (type == SERVER_NAME_EXTENSION) {
                return serverName(m, at, at + size);
            }
            at += size;
        }
        return at == extensionsEnd ? new Result(Status.COMPLETE, Optional.empty()) : Result.MALFORMED;
    }

    private static Result serverName(byte[] m, int at, int end) {
        if (at + 2 > end || at + 2 + u16(m, at) != end) {
            return Result.MALFORMED;
        }
        at += 2;
        while (at + 3 <= end) {
            int type = m[at] & 0xff;
            int size = u16(m, at + 1);
            at += 3;
            if (at + size > end) {
                return Result.MALFORMED;
            }
            if (type == HOST_NAME) {
                String name = new String(m, at, size, StandardCharsets.US_ASCII);
                return name.isEmpty() ? Result.MALFORMED : new Result(Status.COMPLETE, Optional.of(name));
            }
            at += size;
        }
        return Result.MALFORMED;
    }

    private static int u16(byte[] b, int at) {
        return (b[at] & 0xff) << 8 | b[at + 1] & 0xff;
    }

    private static int u24(byte[] b, int at) {
        return (b[at] & 0xff) << 16 | (b[at + 1] & 0xff) << 8 | b[at + 2] & 0xff;
    }
}
