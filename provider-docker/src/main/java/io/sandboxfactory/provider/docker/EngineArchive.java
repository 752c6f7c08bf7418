package io.sandboxfactory.provider.docker;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.dockerjava.core.DockerClientConfig;
import io.sandboxfactory.api.files.FileTransferSandbox;
import io.sandboxfactory.api.support.SandboxPaths;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The two archive requests docker-java cannot make well, spoken directly over the engine's unix
 * socket or plain TCP, one connection per request: {@code HEAD /containers/{id}/archive} (its
 * transport has no HEAD; the {@code X-Docker-Container-Path-Stat} header gives an {@code lstat} with
 * the link target resolved in the container) and the upload {@code PUT}, sent in 256 KiB chunks
 * (docker-java's entity writes 4 KiB ones, which costs about a third more time on large files). A
 * TLS engine is not {@link #supported()}; callers then use docker-java or a command.
 *
 * @param host the engine's endpoint
 * @param tls whether the engine is reached over TLS
 * @param apiVersion the Engine API version of every request
 */
record EngineArchive(URI host, boolean tls, String apiVersion) {

    /** A non-2xx answer of the engine, with its own message. */
    static final class EngineError extends IOException {
        private static final long serialVersionUID = 1L;
        private final int status;

        EngineError(int status, String message) {
            super(message);
            this.status = status;
        }

        int status() {
            return status;
        }
    }

    private static final int CONNECT_TIMEOUT_MILLIS = 10_000;
    private static final int MAX_HEADER_BYTES = 64 * 1024;
    private static final int MAX_ERROR_BYTES = 64 * 1024;
    private static final int CHUNK = 256 * 1024;
    private static final String STAT_HEADER = "x-docker-container-path-stat:";
    private static final Pattern JSON_MESSAGE = Pattern.compile("\"message\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");

    // Go's os.FileMode type bits.
    private static final long MODE_DIR = 1L << 31;
    private static final long MODE_SYMLINK = 1L << 27;
    private static final long MODE_TYPE = MODE_DIR | MODE_SYMLINK | 1L << 26 | 1L << 25 | 1L << 24 | 1L << 21 | 1L << 19;

    boolean supported() {
        String scheme = host.getScheme();
        return !tls && ("unix".equals(scheme) || "tcp".equals(scheme));
    }

    /** What is at {@code path} in the container, not following a link there; empty when nothing is. */
    Optional<SandboxPaths.Entry> lstat(String containerId, String path) throws IOException {
        String response;
        try (Connection connection = open()) {
            connection.out().write(head("HEAD", archivePath(containerId, path), "").getBytes(StandardCharsets.UTF_8));
            connection.out().flush();
            response = readHeaders(connection.in());
        }
        int status = status(response);
        if (status == 404) {
            return Optional.empty();
        }
        if (status != 200) {
            throw new EngineError(status, "The Docker engine answered HTTP " + status + " to a stat of " + path + ".");
        }
        JsonNode stat = DockerClientConfig.getDefaultObjectMapper().readTree(Base64.getDecoder().decode(statHeader(response, path)));
        long mode = stat.path("mode").asLong();
        String linkTarget = stat.path("linkTarget").asText("");
        if ((mode & MODE_SYMLINK) != 0) {
            return Optional.of(new SandboxPaths.Entry(FileTransferSandbox.Kind.OTHER, linkTarget.isEmpty() ? "/" : linkTarget));
        }
        FileTransferSandbox.Kind kind = (mode & MODE_DIR) != 0 ? FileTransferSandbox.Kind.DIRECTORY
                : (mode & MODE_TYPE) == 0 ? FileTransferSandbox.Kind.FILE : FileTransferSandbox.Kind.OTHER;
        return Optional.of(new SandboxPaths.Entry(kind, null));
    }

    /**
     * Uploads the tar stream {@code tar} into {@code directory}, never replacing a directory by a
     * non-directory or the other way round. Throws {@link EngineError} when the engine refuses.
     */
    void put(String containerId, String directory, InputStream tar) throws IOException {
        String target = archivePath(containerId, directory) + "&noOverwriteDirNonDir=true";
        try (Connection connection = open()) {
            OutputStream out = connection.out();
            try {
                out.write(head("PUT", target, "Content-Type: application/x-tar\r\nTransfer-Encoding: chunked\r\n")
                        .getBytes(StandardCharsets.UTF_8));
                byte[] chunk = new byte[CHUNK];
                int n;
                // A failure reading tar propagates as is and closes the connection mid-body: the engine
                // sees a truncated archive, and nothing after the failure is ever sent.
                while ((n = tar.readNBytes(chunk, 0, chunk.length)) > 0) {
                    send(out, chunk, n);
                }
                out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
            } catch (SendFailure sending) {
                // The engine may have refused early and stopped reading; its answer says why.
                connection.shutdownOutput();
                String early = tryReadHeaders(connection.in());
                if (early == null || status(early) / 100 == 2) {
                    throw sending.getCause();
                }
                throw error(early, connection.in());
            }
            String response = readHeaders(connection.in());
            if (status(response) / 100 != 2) {
                throw error(response, connection.in());
            }
        }
    }

    /** A write to the engine failed (as opposed to reading the archive). */
    private static final class SendFailure extends IOException {
        private static final long serialVersionUID = 1L;

        SendFailure(IOException cause) {
            super(cause);
        }

        @Override
        public synchronized IOException getCause() {
            return (IOException) super.getCause();
        }
    }

    private static void send(OutputStream out, byte[] chunk, int n) throws SendFailure {
        try {
            out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(chunk, 0, n);
            out.write('\r');
            out.write('\n');
        } catch (IOException e) {
            throw new SendFailure(e);
        }
    }

    private String archivePath(String containerId, String path) {
        return "/v" + apiVersion + "/containers/" + containerId + "/archive?path=" + URLEncoder.encode(path, StandardCharsets.UTF_8);
    }

    private static String head(String method, String target, String headers) {
        return method + " " + target + " HTTP/1.1\r\nHost: docker\r\n" + headers + "Connection: close\r\n\r\n";
    }

    private EngineError error(String response, InputStream in) throws IOException {
        int status = status(response);
        int length = contentLength(response).map(l -> (int) Math.min(l, MAX_ERROR_BYTES)).orElse(MAX_ERROR_BYTES);
        String body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
        Matcher m = JSON_MESSAGE.matcher(body);
        String message = m.find() ? m.group(1).replace("\\\"", "\"").replace("\\\\", "\\") : body.strip();
        return new EngineError(status, message.isEmpty() ? "HTTP " + status : message);
    }

    private record Connection(AutoCloseable channel, InputStream in, OutputStream out, Shutdown shutdown) implements AutoCloseable {
        interface Shutdown {
            void output() throws IOException;
        }

        /** Tells the engine the request is over, best effort, so it answers instead of waiting for more. */
        void shutdownOutput() {
            try {
                shutdown.output();
            } catch (IOException ignored) {
                // Already closed by the engine: its answer, if any, is still readable.
            }
        }

        @Override
        public void close() throws IOException {
            try {
                channel.close();
            } catch (IOException e) {
                throw e;
            } catch (Exception e) {
                throw new IOException(e);
            }
        }
    }

    private Connection open() throws IOException {
        if ("unix".equals(host.getScheme())) {
            SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(host.getPath()));
            return new Connection(channel, Channels.newInputStream(channel), Channels.newOutputStream(channel), channel::shutdownOutput);
        }
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress(host.getHost(), host.getPort()), CONNECT_TIMEOUT_MILLIS);
        return new Connection(socket, socket.getInputStream(), socket.getOutputStream(), socket::shutdownOutput);
    }

    private static String tryReadHeaders(InputStream in) {
        try {
            String headers = readHeaders(in);
            return headers.startsWith("HTTP/") ? headers : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** Reads up to the blank line that ends the headers. */
    private static String readHeaders(InputStream in) throws IOException {
        ByteArrayOutputStream headers = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            headers.write(b);
            matched = (b == '\r' && (matched == 0 || matched == 2)) || (b == '\n' && (matched == 1 || matched == 3)) ? matched + 1 : 0;
            if (headers.size() > MAX_HEADER_BYTES) {
                throw new IOException("The Docker engine's answer has headers over " + MAX_HEADER_BYTES + " bytes.");
            }
        }
        return headers.toString(StandardCharsets.ISO_8859_1);
    }

    private static int status(String response) throws IOException {
        String statusLine = response.split("\r\n", 2)[0];
        String[] parts = statusLine.split(" ");
        try {
            return Integer.parseInt(parts[1]);
        } catch (RuntimeException e) {
            throw new IOException("The Docker engine's answer is not HTTP: '" + statusLine + "'.");
        }
    }

    /** The announced body length; without one the engine closes the connection after the body (we asked it to). */
    private static Optional<Long> contentLength(String response) {
        for (String line : response.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                try {
                    return Optional.of(Long.parseLong(line.substring("content-length:".length()).strip()));
                } catch (NumberFormatException e) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }

    private static String statHeader(String response, String path) throws IOException {
        for (String line : response.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith(STAT_HEADER)) {
                return line.substring(STAT_HEADER.length()).strip();
            }
        }
        throw new IOException("The Docker engine's stat of " + path + " has no path stat header.");
    }
}
