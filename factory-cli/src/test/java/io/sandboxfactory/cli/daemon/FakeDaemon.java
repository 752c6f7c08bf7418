package io.sandboxfactory.cli.daemon;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in for the factory daemon of a state directory, on the socket the client looks for: it
 * reads one request per connection and answers with {@link Answer}'s frames, so the client's side
 * of the protocol can be tested without a factory.
 */
public final class FakeDaemon implements AutoCloseable {

    /** What the daemon answers a request with. */
    public interface Answer {
        void to(Request request, Frames frames) throws IOException;
    }

    /** A request as the daemon read it. */
    public record Request(List<String> args, String workingDirectory, Map<String, String> environment) {
    }

    /** The frames the daemon writes back. */
    public static final class Frames {
        private final DataOutputStream out;

        private Frames(DataOutputStream out) {
            this.out = out;
        }

        public Frames started() throws IOException {
            return frame(DaemonProtocol.STARTED, "");
        }

        public Frames declined() throws IOException {
            return frame(DaemonProtocol.DECLINED, "");
        }

        public Frames stdout(String text) throws IOException {
            return frame(DaemonProtocol.STDOUT, text);
        }

        public Frames stderr(String text) throws IOException {
            return frame(DaemonProtocol.STDERR, text);
        }

        public void exit(int code) throws IOException {
            DaemonProtocol.writeExit(out, code);
        }

        private Frames frame(byte type, String text) throws IOException {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            DaemonProtocol.writeFrame(out, type, bytes, 0, bytes.length);
            return this;
        }
    }

    private final ServerSocketChannel server;
    private final Path socket;
    private final AtomicInteger connections = new AtomicInteger();
    private final CompletableFuture<Request> firstRequest = new CompletableFuture<>();
    private final Thread acceptor;

    private FakeDaemon(ServerSocketChannel server, Path socket, Answer answer) {
        this.server = server;
        this.socket = socket;
        this.acceptor = new Thread(() -> serve(answer), "fake-factory-daemon");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Listens where a client with this JVM's class path looks for the daemon of {@code stateDirectory}. */
    public static FakeDaemon listen(Path stateDirectory, Answer answer) throws IOException {
        DaemonAddress address = DaemonAddress.of(stateDirectory).orElseThrow();
        address.prepareDirectory();
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(address.socket()));
        return new FakeDaemon(server, address.socket(), answer);
    }

    /** How many clients connected. */
    public int connections() {
        return connections.get();
    }

    /** The first request a client sent. */
    public Request firstRequest() {
        return firstRequest.join();
    }

    private void serve(Answer answer) {
        while (server.isOpen()) {
            try (SocketChannel client = server.accept()) {
                connections.incrementAndGet();
                DaemonProtocol.Request read = DaemonProtocol.readRequest(new DataInputStream(DaemonProtocol.input(client)));
                Request request = new Request(read.args(), read.workingDirectory(), read.environment());
                firstRequest.complete(request);
                answer.to(request, new Frames(new DataOutputStream(DaemonProtocol.output(client))));
            } catch (IOException e) {
                // Closed, or the client went away: the next connection, if any.
            }
        }
    }

    @Override
    public void close() throws Exception {
        server.close();
        acceptor.join();
        Files.deleteIfExists(socket);
    }
}
