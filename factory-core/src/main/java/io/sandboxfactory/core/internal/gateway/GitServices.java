package io.sandboxfactory.core.internal.gateway;

import io.sandboxfactory.api.host.RepositoryAccess;
import io.sandboxfactory.core.session.Redaction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Runs git's services ({@code upload-pack}, {@code receive-pack}) on the host with a connection as
 * their standard input and output; a connection whose client went away ends with the timeout.
 */
final class GitServices implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GitServices.class);

    private final Duration timeout;
    private final ExecutorService pumps = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "sandbox-factory-git-gateway");
        thread.setDaemon(true);
        return thread;
    });

    GitServices(Duration timeout) {
        this.timeout = timeout;
    }

    long timeoutSeconds() {
        return Math.max(1, timeout.toSeconds());
    }

    /** Runs {@code command} in {@code directory} with only PATH, HOME and {@code extraEnv}, its stdio the connection's. */
    void run(List<String> command, Path directory, Map<String, String> extraEnv, InputStream in, OutputStream out,
             RepositoryAccess repository) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile());
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(name -> !name.equals("PATH") && !name.equals("HOME"));
        env.putAll(extraEnv);
        Process process = builder.start();
        pumps.submit(() -> copy(in, process.getOutputStream(), true));
        Redaction redaction = Redaction.of(repository.authorization().map(RepositoryAccess.Authorization::token).stream().toList());
        pumps.submit(() -> {
            try (InputStream errors = process.getErrorStream()) {
                String text = new String(errors.readAllBytes(), StandardCharsets.UTF_8);
                if (!text.isBlank()) {
                    LOG.debug("{} said: {}", command.get(command.size() - 2), redaction.apply(text.strip()));
                }
            } catch (IOException e) {
                // Nothing more to read.
            }
        });
        // A client that went away leaves the process (or the write to it) waiting: the timeout ends both.
        pumps.submit(() -> {
            try {
                if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly();
                    in.close();
                    out.close();
                }
            } catch (InterruptedException | IOException e) {
                process.destroyForcibly();
            }
            return null;
        });
        copy(process.getInputStream(), out, false);
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        pumps.shutdownNow();
    }

    private static void copy(InputStream from, OutputStream to, boolean closeTarget) {
        byte[] buffer = new byte[64 * 1024];
        try {
            int n;
            while ((n = from.read(buffer)) >= 0) {
                to.write(buffer, 0, n);
                to.flush();
            }
        } catch (IOException e) {
            // The other side ended: the connection or the process is over.
        } finally {
            if (closeTarget) {
                try {
                    to.close();
                } catch (IOException e) {
                    // Already gone.
                }
            }
        }
    }
}
