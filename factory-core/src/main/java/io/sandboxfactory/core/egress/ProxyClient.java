package io.sandboxfactory.core.egress;

import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.Objects;

/**
 * One client of the proxy: a TCP connection to its port, or a connection that came through a
 * session's host channel (a sandbox without a route: the channel's directory says which session).
 */
abstract class ProxyClient {

    private final InputStream in;
    private final OutputStream out;

    private ProxyClient(InputStream in, OutputStream out) {
        this.in = in;
        this.out = out;
    }

    /** What the client sends, buffered (the request head is read from it, and the rest spliced). */
    final InputStream in() {
        return in;
    }

    final OutputStream out() {
        return out;
    }

    /** Bounds how long a read of the client's request head waits, where the transport can. */
    abstract void readTimeout(int millis) throws IOException;

    /** Tells the client the response is whole. */
    abstract void endOutput() throws IOException;

    /** How long a client whose upstream ended may go on sending before the connection is cut. */
    abstract Duration grace();

    /** Whether a request of {@code session} (by its capability) may come this way. */
    abstract boolean accepts(EgressSessions.Registration session);

    /** A TCP connection: any session's capability, half-closed at the end of the response. */
    static ProxyClient of(Socket socket) throws IOException {
        return new ProxyClient(new BufferedInputStream(socket.getInputStream()), socket.getOutputStream()) {
            @Override
            void readTimeout(int millis) throws IOException {
                socket.setSoTimeout(millis);
            }

            @Override
            void endOutput() throws IOException {
                if (!socket.isClosed() && !socket.isOutputShutdown()) {
                    socket.shutdownOutput();
                }
            }

            @Override
            Duration grace() {
                return Duration.ofSeconds(2);
            }

            @Override
            boolean accepts(EgressSessions.Registration session) {
                return true;
            }
        };
    }

    /**
     * A connection of {@code sessionId}'s host channel: only that session's capability; the
     * channel's input never ends by itself, so the connection ends with its upstream, at once.
     */
    static ProxyClient ofChannel(String sessionId, InputStream channelIn, OutputStream channelOut) {
        Objects.requireNonNull(sessionId, "sessionId");
        // A FIFO's channel cannot say what is available (it would seek): nothing is, as far as a buffer asks.
        InputStream in = new BufferedInputStream(new FilterInputStream(channelIn) {
            @Override
            public int available() {
                return 0;
            }
        });
        return new ProxyClient(in, channelOut) {
            @Override
            void readTimeout(int millis) {
                // A FIFO has no read timeout; the channel's slot is the sandbox's to hold.
            }

            @Override
            void endOutput() throws IOException {
                channelOut.flush();
            }

            @Override
            Duration grace() {
                return Duration.ZERO;
            }

            @Override
            boolean accepts(EgressSessions.Registration session) {
                return session.sessionId().equals(sessionId);
            }
        };
    }
}
