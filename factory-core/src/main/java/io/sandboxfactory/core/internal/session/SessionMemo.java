package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.MastraSandbox;
import jakarta.inject.Inject;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The sandboxes this factory holds in this process, by session id (one instance per factory,
 * never static).
 *
 * <p>Guarantees: {@link #getOrCreate} calls its supplier at most once per session while the entry
 * lives, however many threads ask at once; a supplier that throws leaves no entry, so the next call
 * retries. {@link #peek} never constructs (passive readers must not provision). {@link #evict}
 * drops the entry and then tells every registered listener, even when no entry was held. A
 * supplier may call back into the memo for other sessions without deadlocking the map, because
 * construction happens outside the map's own locks.
 */
public final class SessionMemo {

    /** A session's place in the map; construction is serialized on it, not on the map. */
    private static final class Slot {
        private SessionEntry entry;
        private boolean dropped;
        private boolean constructing;
    }

    private final ConcurrentMap<String, Slot> slots = new ConcurrentHashMap<>();
    private final List<SessionEvictionListener> listeners = new CopyOnWriteArrayList<>();

    @Inject
    public SessionMemo() {
    }

    /** The entry of {@code sessionId}, constructing its sandbox with {@code create} only when there is none. */
    public SessionEntry getOrCreate(String sessionId, Supplier<? extends MastraSandbox<?>> create) {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(create, "create");
        while (true) {
            Slot slot = slots.computeIfAbsent(sessionId, id -> new Slot());
            synchronized (slot) {
                if (slot.dropped) {
                    continue; // evicted or failed while we waited: start over with a fresh slot
                }
                if (slot.entry == null) {
                    if (slot.constructing) {
                        throw new IllegalStateException("The sandbox supplier for session '" + sessionId
                                + "' asked the memo for the same session; it must not.");
                    }
                    slot.constructing = true;
                    try {
                        slot.entry = construct(sessionId, slot, create);
                    } finally {
                        slot.constructing = false;
                    }
                }
                return slot.entry;
            }
        }
    }

    private SessionEntry construct(String sessionId, Slot slot, Supplier<? extends MastraSandbox<?>> create) {
        try {
            MastraSandbox<?> sandbox = Objects.requireNonNull(create.get(),
                    () -> "The sandbox supplier for session '" + sessionId + "' returned null.");
            return new SessionEntry(sessionId, sandbox);
        } catch (RuntimeException | Error e) {
            slot.dropped = true;
            slots.remove(sessionId, slot);
            throw e;
        }
    }

    /** The entry of {@code sessionId} if this process holds one; never constructs anything. */
    public Optional<SessionEntry> peek(String sessionId) {
        Slot slot = slots.get(sessionId);
        if (slot == null) {
            return Optional.empty();
        }
        synchronized (slot) {
            return slot.dropped ? Optional.empty() : Optional.ofNullable(slot.entry);
        }
    }

    /**
     * Drops the entry of {@code sessionId} (waiting for a construction in progress) and then notifies
     * every listener. When listeners fail, all still run and the first failure is rethrown with the
     * others suppressed.
     */
    public Optional<SessionEntry> evict(String sessionId) {
        Objects.requireNonNull(sessionId, "sessionId");
        Optional<SessionEntry> evicted = Optional.empty();
        Slot slot = slots.remove(sessionId);
        if (slot != null) {
            synchronized (slot) {
                slot.dropped = true;
                evicted = Optional.ofNullable(slot.entry);
            }
        }
        notifyListeners(sessionId, evicted);
        return evicted;
    }

    /**
     * Drops the entry of {@code sessionId} only while it is still {@code expected} (by identity),
     * then notifies listeners as {@link #evict(String)} does. Returns whether it dropped it; an entry
     * replaced meanwhile is left alone.
     */
    public boolean evict(String sessionId, SessionEntry expected) {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(expected, "expected");
        Slot slot = slots.get(sessionId);
        if (slot == null) {
            return false;
        }
        synchronized (slot) {
            if (slot.dropped || slot.entry != expected) {
                return false;
            }
            slot.dropped = true;
            slots.remove(sessionId, slot);
        }
        notifyListeners(sessionId, Optional.of(expected));
        return true;
    }

    private void notifyListeners(String sessionId, Optional<SessionEntry> evicted) {
        RuntimeException failure = null;
        for (SessionEvictionListener listener : listeners) {
            try {
                listener.onEvict(sessionId, evicted);
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Registers {@code listener}; the returned handle unregisters it. */
    public Runnable addEvictionListener(SessionEvictionListener listener) {
        Objects.requireNonNull(listener, "listener");
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    /** The sessions this process holds an entry for right now. */
    public Set<String> sessionIds() {
        return slots.entrySet().stream()
                .filter(e -> peek(e.getKey()).isPresent())
                .map(Map.Entry::getKey)
                .collect(Collectors.toUnmodifiableSet());
    }
}
