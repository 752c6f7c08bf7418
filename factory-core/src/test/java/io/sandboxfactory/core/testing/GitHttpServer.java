package io.sandboxfactory.core.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A real authenticated git remote on loopback: an HTTP server that demands HTTP Basic auth with
 * the currently accepted token as password, and serves the repositories under a project root with
 * {@code git http-backend} run as a CGI program.
 */
public final class GitHttpServer implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final Path projectRoot;
    private final String backend;
    private final AtomicReference<String> acceptedToken;
    private final List<String> requestUris = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger unauthorized = new AtomicInteger();
    private final AtomicInteger authorized = new AtomicInteger();
    private final AtomicInteger advertisements = new AtomicInteger();
    private final AtomicReference<Hold> hold = new AtomicReference<>();

    /**
     * A fetch held at the server: {@code arrived} opens when its ref advertisement request came in,
     * and the server answers it once {@code release} is counted down.
     */
    public record Hold(CountDownLatch arrived, CountDownLatch release) {
    }

    public GitHttpServer(Path projectRoot, String token) throws IOException {
        this.projectRoot = projectRoot;
        this.acceptedToken = new AtomicReference<>(token);
        this.backend = Git.run(projectRoot, "--exec-path") + "/git-http-backend";
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/git/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    /** The clone URL of repository {@code name} (a directory under the project root). */
    public String url(String name) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/git/" + name;
    }

    /** From now on only {@code token} is accepted. */
    public void acceptOnly(String token) {
        acceptedToken.set(token);
    }

    public List<String> requestUris() {
        synchronized (requestUris) {
            return List.copyOf(requestUris);
        }
    }

    public int unauthorizedRequests() {
        return unauthorized.get();
    }

    public int authorizedRequests() {
        return authorized.get();
    }

    /** How many git fetches and clones were served: authorized {@code info/refs?service=git-upload-pack} requests, one per operation. */
    public int uploadPackAdvertisements() {
        return advertisements.get();
    }

    /** Holds the next fetch or clone (its authorized ref advertisement) until the returned hold is released. */
    public Hold holdNextFetch() {
        Hold next = new Hold(new CountDownLatch(1), new CountDownLatch(1));
        hold.set(next);
        return next;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            requestUris.add(exchange.getRequestURI().toString());
            String user = authenticatedUser(exchange.getRequestHeaders().getFirst("Authorization"));
            if (user == null) {
                unauthorized.incrementAndGet();
                exchange.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"git\"");
                exchange.sendResponseHeaders(401, -1);
                return;
            }
            authorized.incrementAndGet();
            if ("service=git-upload-pack".equals(exchange.getRequestURI().getRawQuery())) {
                advertisements.incrementAndGet();
                Hold held = hold.getAndSet(null);
                if (held != null) {
                    held.arrived().countDown();
                    awaitRelease(held);
                }
            }
            runCgi(exchange, user);
        }
    }

    private static void awaitRelease(Hold held) throws IOException {
        try {
            if (!held.release().await(2, TimeUnit.MINUTES)) {
                throw new IOException("a held fetch was never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while holding a fetch", e);
        }
    }

    private String authenticatedUser(String header) {
        if (header == null || !header.startsWith("Basic ")) {
            return null;
        }
        String decoded = new String(Base64.getDecoder().decode(header.substring(6)), StandardCharsets.UTF_8);
        int colon = decoded.indexOf(':');
        if (colon < 0 || !decoded.substring(colon + 1).equals(acceptedToken.get())) {
            return null;
        }
        return decoded.substring(0, colon);
    }

    private void runCgi(HttpExchange exchange, String user) throws IOException {
        String path = exchange.getRequestURI().getRawPath().substring("/git".length());
        ProcessBuilder builder = new ProcessBuilder(backend);
        Map<String, String> env = builder.environment();
        env.clear();
        env.put("PATH", System.getenv("PATH"));
        env.put("GIT_PROJECT_ROOT", projectRoot.toString());
        env.put("GIT_HTTP_EXPORT_ALL", "1");
        env.put("PATH_INFO", path);
        env.put("REQUEST_METHOD", exchange.getRequestMethod());
        env.put("QUERY_STRING", exchange.getRequestURI().getRawQuery() == null ? "" : exchange.getRequestURI().getRawQuery());
        env.put("REMOTE_USER", user);
        env.put("REMOTE_ADDR", "127.0.0.1");
        env.put("GATEWAY_INTERFACE", "CGI/1.1");
        String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
        if (contentType != null) {
            env.put("CONTENT_TYPE", contentType);
        }
        String encoding = exchange.getRequestHeaders().getFirst("Content-Encoding");
        if (encoding != null) {
            env.put("HTTP_CONTENT_ENCODING", encoding);
        }
        String protocol = exchange.getRequestHeaders().getFirst("Git-Protocol");
        if (protocol != null) {
            env.put("GIT_PROTOCOL", protocol);
        }
        Process process = builder.start();
        executor.execute(() -> {
            try (InputStream body = exchange.getRequestBody(); OutputStream stdin = process.getOutputStream()) {
                body.transferTo(stdin);
            } catch (IOException ignored) {
                // The backend may stop reading early; its response says what happened.
            }
        });
        executor.execute(() -> {
            try (InputStream err = process.getErrorStream()) {
                err.transferTo(OutputStream.nullOutputStream());
            } catch (IOException ignored) {
                // Diagnostics only.
            }
        });
        try (InputStream out = process.getInputStream()) {
            int status = 200;
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            while (true) {
                int b = out.read();
                if (b < 0) {
                    break;
                }
                if (b != '\n') {
                    line.write(b);
                    continue;
                }
                String header = line.toString(StandardCharsets.ISO_8859_1).replace("\r", "");
                line.reset();
                if (header.isEmpty()) {
                    break;
                }
                int colon = header.indexOf(':');
                String name = header.substring(0, colon).trim();
                String value = header.substring(colon + 1).trim();
                if (name.equalsIgnoreCase("Status")) {
                    status = Integer.parseInt(value.split(" ")[0]);
                } else {
                    exchange.getResponseHeaders().add(name, value);
                }
            }
            exchange.sendResponseHeaders(status, 0);
            try (OutputStream response = exchange.getResponseBody()) {
                out.transferTo(response);
            }
        }
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
