package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.CommandExecutor;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.egress.EgressProxy;
import io.sandboxfactory.core.internal.channel.HostChannel;
import io.sandboxfactory.core.internal.channel.SessionChannel;
import io.sandboxfactory.core.internal.channel.SessionChannels;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The way to the egress proxy for sandboxes without a route to it (a network namespace of their
 * own, Docker's {@code none}): a channel per session in mode allowlist — a {@link HostChannel} in a
 * host directory the sandbox sees read-only, or one bridged through the sandbox's streams where it
 * cannot open a host FIFO (gVisor) — whose every connection the proxy serves for that session only. A listener in the sandbox (see {@link EgressListener}) turns the sandbox's TCP connections to
 * {@code 127.0.0.1:}{@value EgressListener#PORT} into connections of the channel.
 */
public final class EgressChannels implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EgressChannels.class);
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(30);

    private final Path stateDirectory;
    private final EgressProxy proxy;
    private final boolean enabled;
    private final Map<String, SessionChannel> open = new ConcurrentHashMap<>();
    private final Map<String, Future<CommandResult>> listeners = new ConcurrentHashMap<>();
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "egress-listener");
        t.setDaemon(true);
        return t;
    });

    /**
     * @param stateDirectory the factory's; channels live in {@code channels/egress-<key>}
     * @param enabled mode allowlist, and the provider's sandboxes see host directories
     */
    public EgressChannels(Path stateDirectory, EgressProxy proxy, boolean enabled) {
        this.stateDirectory = stateDirectory;
        this.proxy = Objects.requireNonNull(proxy, "proxy");
        this.enabled = enabled;
    }

    /** Whether sessions reach the proxy through a channel (else directly at its address). */
    public boolean enabled() {
        return enabled;
    }

    /** The directory a new sandbox of {@code sessionId} must see (made now), when sessions reach the proxy this way. */
    public Optional<Path> directoryFor(String sessionId) {
        if (!enabled) {
            return Optional.empty();
        }
        Path directory = directory(sessionId);
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("The egress channel's directory " + directory + " could not be made: " + e.getMessage(), e);
        }
        return Optional.of(directory);
    }

    /**
     * Serves the session's channel from this process (opened into {@code sandbox} the way it can use
     * one, {@link SessionChannels}), and makes sure the sandbox has its listener running (started now
     * unless this process's earlier one still runs).
     */
    void connect(String sessionId, Object sandbox, CommandExecutor exec) {
        String client = open(sessionId, sandbox, exec).client();
        listeners.compute(sessionId, (id, running) -> running != null && !running.isDone() ? running
                : EgressListener.start(id, exec, client, threads));
    }

    /** The session's channel, served from now on by this process. */
    private SessionChannel open(String sessionId, Object sandbox, CommandExecutor exec) {
        return open.compute(sessionId, (id, current) -> {
            if (current != null && current.serving()) {
                return current;
            }
            if (current != null) {
                current.close();
            }
            try {
                Path directory = directory(id);
                return SessionChannels.open(Optional.of(directory), directory.getFileName().toString(), sandbox, exec,
                        (header, in, out) -> proxy.serveChannel(id, in, out));
            } catch (SessionChannels.UnavailableException e) {
                throw new SandboxException(StandardErrorCode.START_FAILED, "Session '" + id + "' cannot reach the egress proxy (egress.mode"
                        + " allowlist): " + e.getMessage() + ".", e);
            }
        });
    }

    /** Stops serving the session's channel (a connection in progress is cut). */
    void revoke(String sessionId) {
        Future<CommandResult> listener = listeners.remove(sessionId);
        if (listener != null) {
            listener.cancel(true);
        }
        SessionChannel channel = open.remove(sessionId);
        if (channel != null) {
            channel.close();
        }
    }

    /** Revokes the session's channel and removes its directory: the session is destroyed. */
    public void remove(String sessionId) {
        revoke(sessionId);
        try {
            HostChannel.remove(directory(sessionId));
        } catch (IOException e) {
            LOG.debug("The egress channel's directory of session '{}' could not be removed: {}", sessionId, e.toString());
        }
    }

    /**
     * Revokes every channel and waits (a bounded time) for the listeners' commands to end: a command is
     * killed on its own thread through the provider, which closes after this, and would otherwise be
     * closed under the kill. Not {@code shutdownNow}: a second interrupt would cut the kill's wait short.
     */
    @Override
    public void close() {
        open.keySet().forEach(this::revoke);
        threads.shutdown();
        try {
            if (!threads.awaitTermination(CLOSE_WAIT.toSeconds(), TimeUnit.SECONDS)) {
                LOG.warn("An egress listener's command did not end within {} of the factory's close.", CLOSE_WAIT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Path directory(String sessionId) {
        return HostChannel.directoryFor(stateDirectory, "egress", sessionId);
    }
}
