package io.sandboxfactory.core.egress;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The head of one request a sandbox sent the proxy: {@code CONNECT host:port} or a plain HTTP
 * request in absolute form ({@code GET http://host/path}), with its header lines.
 *
 * @param method the request method
 * @param target the request target as sent
 * @param version the HTTP version as sent
 * @param headers the header lines, unfolded, in order
 */
record ProxyRequest(String method, String target, String version, List<String> headers) {

    /** A head longer than this is refused: no real client sends one to a proxy. */
    static final int MAX_HEAD_BYTES = 32 * 1024;

    /** Thrown for a head the proxy cannot serve; the message is the one line the client gets with {@link #status}. */
    static final class BadRequest extends IOException {
        private static final long serialVersionUID = 1L;
        final int status;

        BadRequest(int status, String message) {
            super(message);
            this.status = status;
        }
    }

    /** The host and port a request is for. */
    record Authority(String host, int port) {
        @Override
        public String toString() {
            return host + ":" + port;
        }
    }

    /** Reads one head from {@code in}, leaving every byte after it unread; empty at a clean end of stream. */
    static Optional<ProxyRequest> read(InputStream in) throws IOException {
        List<String> lines = new ArrayList<>();
        int total = 0;
        while (true) {
            String line = line(in, MAX_HEAD_BYTES - total);
            if (line == null) {
                if (lines.isEmpty() && total == 0) {
                    return Optional.empty();
                }
                throw new BadRequest(400, "The request ended before its head did.");
            }
            total += line.length() + 2;
            if (line.isEmpty()) {
                break;
            }
            lines.add(line);
        }
        if (lines.isEmpty()) {
            throw new BadRequest(400, "The request has no request line.");
        }
        String[] parts = lines.get(0).split(" ");
        if (parts.length != 3) {
            throw new BadRequest(400, "The request line is not 'METHOD target HTTP/1.x'.");
        }
        return Optional.of(new ProxyRequest(parts[0], parts[1], parts[2], List.copyOf(lines.subList(1, lines.size()))));
    }

    boolean isConnect() {
        return method.equals("CONNECT");
    }

    /** The value of the first header named {@code name}. */
    Optional<String> header(String name) {
        String prefix = name.toLowerCase(Locale.ROOT) + ":";
        return headers.stream().filter(h -> h.toLowerCase(Locale.ROOT).startsWith(prefix))
                .map(h -> h.substring(prefix.length()).strip()).findFirst();
    }

    /** The user name of a {@code Proxy-Authorization: Basic} header: the session's capability. */
    Optional<String> capability() {
        return header("Proxy-Authorization").filter(v -> v.regionMatches(true, 0, "Basic ", 0, 6)).flatMap(v -> {
            try {
                String decoded = new String(Base64.getDecoder().decode(v.substring(6).strip()), StandardCharsets.UTF_8);
                int colon = decoded.indexOf(':');
                return Optional.of(colon < 0 ? decoded : decoded.substring(0, colon));
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
        });
    }

    /** Where a {@code CONNECT} goes: its {@code host:port} target. */
    Authority connectAuthority() throws BadRequest {
        int colon = target.lastIndexOf(':');
        if (colon <= 0 || target.startsWith("[")) {
            throw new BadRequest(400, "CONNECT needs a target of the form host:port.");
        }
        return new Authority(target.substring(0, colon), port(target.substring(colon + 1)));
    }

    /** The target URI of a plain request, which must be absolute {@code http://}. */
    URI absoluteTarget() throws BadRequest {
        try {
            URI uri = new URI(target);
            if (!"http".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null || uri.getRawUserInfo() != null) {
                throw new BadRequest(400, "A plain request to the proxy needs an absolute http:// target without user info.");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new BadRequest(400, "The request target is not a URI.");
        }
    }

    static Authority authority(URI uri) {
        return new Authority(uri.getHost(), uri.getPort() < 0 ? 80 : uri.getPort());
    }

    private static int port(String digits) throws BadRequest {
        try {
            int port = Integer.parseInt(digits);
            if (port >= 1 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new BadRequest(400, "Port '" + digits + "' is not a port.");
    }

    /** One line without its CRLF (a bare LF ends one too), or null at end of stream before any byte. */
    private static String line(InputStream in, int budget) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1) {
            if (b == '\n') {
                String text = line.toString(StandardCharsets.ISO_8859_1);
                return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
            }
            if (line.size() >= budget) {
                throw new BadRequest(431, "The request head is longer than " + MAX_HEAD_BYTES + " bytes.");
            }
            line.write(b);
        }
        if (line.size() == 0) {
            return null;
        }
        throw new BadRequest(400, "The request ended before its head did.");
    }
}
