package io.sandboxfactory.core.internal.session;

import jakarta.inject.Inject;
import io.sandboxfactory.store.api.SessionStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Keeps the session store's last-used and busy times true while this factory runs commands
 * (design §5.13): a command marks its session used and busy for {@link #BUSY_FOR} when it begins,
 * renewed every {@link #RENEW_EVERY} while it runs, so an idle policy in any process never takes a
 * session with a command running for idle; the store also keeps the command as running until it
 * ends (one write at each end), so {@code status} in any process can say a command runs now
 * ({@link SessionStore#sessionsRunningCommands}). An agent thinking between commands calls {@link
 * #touch}. Store failures are logged, never fatal: bookkeeping must not fail a command.
 */
public final class CommandActivity implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CommandActivity.class);

    /** How long one mark keeps a session busy; three renewals fit in it, so one slow write never lets it lapse. */
    public static final Duration BUSY_FOR = Duration.ofSeconds(60);
    static final Duration RENEW_EVERY = Duration.ofSeconds(20);

    private final SessionStore store;
    private final Clock clock;
    /** This factory's running commands, by command id; a command leaves it (under its own lock) before its end is written. */
    private final Map<String, Running> commands = new ConcurrentHashMap<>();
    private final ScheduledExecutorService renewal;

    /** One running command; closing it marks the session used again. */
    public interface Command extends AutoCloseable {
        @Override
        void close();
    }

    @Inject
    public CommandActivity(SessionStore store, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.renewal = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "session-busy-renewal");
            t.setDaemon(true);
            return t;
        });
        renewal.scheduleWithFixedDelay(this::renew, RENEW_EVERY.toMillis(), RENEW_EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Marks {@code sessionId} used, busy and running for as long as the returned command stays open. */
    public Command begin(String sessionId) {
        Running command = new Running(sessionId, UUID.randomUUID().toString());
        commands.put(command.id, command);
        command.mark(Optional.of(clock.instant().plus(BUSY_FOR)));
        return () -> {
            commands.remove(command.id);
            command.end();
        };
    }

    /** Marks {@code sessionId} used now. */
    public void touch(String sessionId) {
        record(sessionId, Optional.empty());
    }

    /** Whether a command of {@code sessionId} runs in this factory now. */
    public boolean running(String sessionId) {
        return commands.values().stream().anyMatch(command -> command.sessionId.equals(sessionId));
    }

    private void record(String sessionId, Optional<Instant> busyUntil) {
        try {
            store.recordUse(sessionId, clock.instant(), busyUntil);
        } catch (RuntimeException e) {
            LOG.warn("Could not record the use of session '{}': {}", sessionId, e.getMessage());
        }
    }

    private void renew() {
        for (Running command : commands.values()) {
            command.renew(clock.instant().plus(BUSY_FOR));
        }
    }

    /** One running command's store row; its lock keeps a renewal from writing it again after its end. */
    private final class Running {
        final String sessionId;
        final String id;
        private boolean ended;

        Running(String sessionId, String id) {
            this.sessionId = sessionId;
            this.id = id;
        }

        synchronized void renew(Instant until) {
            if (!ended) {
                mark(Optional.of(until));
            }
        }

        synchronized void end() {
            ended = true;
            mark(Optional.empty());
        }

        void mark(Optional<Instant> runningUntil) {
            try {
                store.recordCommand(sessionId, id, clock.instant(), runningUntil);
            } catch (RuntimeException e) {
                LOG.warn("Could not record a command of session '{}' as {}: {}", sessionId, runningUntil.isPresent() ? "running" : "ended",
                        e.getMessage());
            }
        }
    }

    @Override
    public void close() {
        renewal.shutdownNow();
    }
}
