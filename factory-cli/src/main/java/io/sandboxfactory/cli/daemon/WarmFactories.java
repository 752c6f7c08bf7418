package io.sandboxfactory.cli.daemon;

import io.sandboxfactory.cli.FactoryLauncher;
import io.sandboxfactory.cli.FactorySource;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionListener;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The daemon's factories, one per {@linkplain FactoryLauncher#fingerprint() fingerprint} (config,
 * options, plugins, environment), kept open across commands: their memos hold the sessions' running
 * sandboxes, so a command in a session that already started runs without starting it again. At
 * most {@code capacity} stay open; beyond that the least recently used idle one is closed.
 */
public final class WarmFactories implements FactorySource, AutoCloseable {

    private static final class Warm {
        final SandboxFactory factory;
        final ThreadRoutedListener listener;
        int users;

        Warm(SandboxFactory factory, ThreadRoutedListener listener) {
            this.factory = factory;
            this.listener = listener;
        }
    }

    private final int capacity;
    /** In access order, least recently used first. Guarded by {@code this}. */
    private final Map<String, Warm> byFingerprint = new LinkedHashMap<>(16, 0.75f, true);
    private boolean closed;

    WarmFactories(int capacity) {
        this.capacity = capacity;
    }

    @Override
    public Use use(FactoryLauncher launcher, SessionListener listener) {
        String fingerprint = launcher.fingerprint();
        Warm warm = join(fingerprint);
        if (warm == null) {
            // Built outside the lock: a slow build must not hold up commands of other factories.
            ThreadRoutedListener routed = new ThreadRoutedListener();
            warm = adopt(fingerprint, new Warm(launcher.build(routed, "daemon"), routed));
        }
        // A warm factory was built for another invocation: this one learns its secrets too.
        launcher.learnedFrom(warm.factory);
        Thread thread = Thread.currentThread();
        Warm used = warm;
        used.listener.route(thread, listener);
        return new Use(used.factory, () -> {
            used.listener.unroute(thread);
            leave(used);
        });
    }

    private synchronized Warm join(String fingerprint) {
        requireOpen();
        Warm warm = byFingerprint.get(fingerprint);
        if (warm != null) {
            warm.users++;
        }
        return warm;
    }

    /** Keeps {@code built} unless another command built one for the same fingerprint meanwhile. */
    private Warm adopt(String fingerprint, Warm built) {
        List<SandboxFactory> toClose = new ArrayList<>();
        Warm winner = null;
        synchronized (this) {
            if (!closed) {
                Warm existing = byFingerprint.get(fingerprint);
                winner = existing != null ? existing : built;
                winner.users++;
                if (existing == null) {
                    byFingerprint.put(fingerprint, built);
                    toClose.addAll(evictIdleBeyondCapacity());
                } else {
                    toClose.add(built.factory);
                }
            }
        }
        if (winner == null) {
            built.factory.close();
            requireOpen();
        }
        toClose.forEach(SandboxFactory::close);
        return winner;
    }

    private synchronized void leave(Warm warm) {
        warm.users--;
    }

    private List<SandboxFactory> evictIdleBeyondCapacity() {
        List<SandboxFactory> evicted = new ArrayList<>();
        for (Iterator<Warm> it = byFingerprint.values().iterator(); it.hasNext() && byFingerprint.size() > capacity; ) {
            Warm warm = it.next();
            if (warm.users == 0) {
                it.remove();
                evicted.add(warm.factory);
            }
        }
        return evicted;
    }

    private synchronized void requireOpen() {
        if (closed) {
            throw new IllegalStateException("The factory daemon is shutting down; run the command again.");
        }
    }

    /**
     * Applies each open factory's idle policies ({@code lifecycle.*}); a factory in use meanwhile
     * stays open until this is done. Returns one line per session retired or failed.
     */
    List<String> applyIdlePolicies() {
        List<Warm> open;
        synchronized (this) {
            if (closed) {
                return List.of();
            }
            open = new ArrayList<>(byFingerprint.values());
            open.forEach(warm -> warm.users++);
        }
        List<String> lines = new ArrayList<>();
        try {
            for (Warm warm : open) {
                try {
                    warm.factory.fleet().applyIdlePolicies().forEach(result -> lines.add(result.describe()));
                } catch (RuntimeException e) {
                    lines.add("applying the idle policies failed: " + e.getMessage());
                }
            }
        } finally {
            open.forEach(this::leave);
        }
        return lines;
    }

    /** The sessions the open factories hold warm (their sandboxes stay running between commands), sorted. */
    List<String> heldSessions() {
        List<SandboxFactory> open;
        synchronized (this) {
            open = byFingerprint.values().stream().map(warm -> warm.factory).toList();
        }
        return open.stream().flatMap(factory -> factory.heldSessions().stream()).distinct().sorted().toList();
    }

    synchronized int size() {
        return byFingerprint.size();
    }

    /** Closes every factory; commands still using one see it closed. */
    @Override
    public void close() {
        List<Warm> all;
        synchronized (this) {
            closed = true;
            all = List.copyOf(byFingerprint.values());
            byFingerprint.clear();
        }
        all.forEach(warm -> warm.factory.close());
    }
}
