package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.core.store.SessionStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Keeps the session store's last-used and busy times true while this factory runs commands
 * (design §5.13): a command marks its session used and busy for {@link #BUSY_FOR} when it begins,
 * renewed every {@link #RENEW_EVERY} while it runs, so an idle policy in any process never takes a
 * session with a command running for idle; one that ran a second or more marks it used again when
 * it ends (a short one costs one store write). An agent thinking between commands calls {@link
 * #touch}. Store failures are logged, never fatal: bookkeeping must not fail a command.
 */
public final class CommandActivity implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CommandActivity.class);

    /** How long one mark keeps a session busy; three renewals fit in it, so one slow write never lets it lapse. */
    public static final Duration BUSY_FOR = Duration.ofSeconds(60);
    static final Duration RENEW_EVERY = Duration.ofSeconds(20);
    private static final Duration MARK_END_AFTER = Duration.ofSeconds(1);

    private final SessionStore store;
    private final Clock clock;
    private final Map<String, AtomicInteger> running = new ConcurrentHashMap<>();
    private final ScheduledExecutorService renewal;

    /** One running command; closing it marks the session used again. */
    public interface Command extends AutoCloseable {
        @Override
        void close();
    }

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

    /** Marks {@code sessionId} used and busy for as long as the returned command stays open. */
    public Command begin(String sessionId) {
        running.computeIfAbsent(sessionId, id -> new AtomicInteger()).incrementAndGet();
        Instant began = clock.instant();
        record(sessionId, Optional.of(began.plus(BUSY_FOR)));
        return () -> {
            running.computeIfPresent(sessionId, (id, count) -> count.decrementAndGet() <= 0 ? null : count);
            if (!began.plus(MARK_END_AFTER).isAfter(clock.instant())) {
                record(sessionId, Optional.empty());
            }
        };
    }

    /** Marks {@code sessionId} used now. */
    public void touch(String sessionId) {
        record(sessionId, Optional.empty());
    }

    /** Whether a command of {@code sessionId} runs in this factory now. */
    public boolean running(String sessionId) {
        return running.containsKey(sessionId);
    }

    private void record(String sessionId, Optional<Instant> busyUntil) {
        try {
            store.recordUse(sessionId, clock.instant(), busyUntil);
        } catch (RuntimeException e) {
            LOG.warn("Could not record the use of session '{}': {}", sessionId, e.getMessage());
        }
    }

    private void renew() {
        for (String sessionId : running.keySet()) {
            try {
                store.recordBusy(sessionId, clock.instant().plus(BUSY_FOR));
            } catch (RuntimeException e) {
                LOG.warn("Could not renew the busy mark of session '{}': {}", sessionId, e.getMessage());
            }
        }
    }

    @Override
    public void close() {
        renewal.shutdownNow();
    }
}
