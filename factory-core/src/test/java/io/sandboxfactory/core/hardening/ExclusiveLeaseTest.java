package io.sandboxfactory.core.hardening;

import io.sandboxfactory.core.internal.store.SessionLeases;
import io.sandboxfactory.store.api.LeaseOwner;
import io.sandboxfactory.core.store.SqliteSessionStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The exclusive hold a retirement takes on a session's lease within one owner (one factory), on a
 * real SQLite store: it waits for the owner's shares to drain, shares wait while it holds (or give
 * up), and a thread that already shares never waits for itself.
 */
class ExclusiveLeaseTest {

    @TempDir
    Path state;

    private SessionLeases leases(SqliteSessionStore store) {
        return new SessionLeases(store, LeaseOwner.forThisProcess(), Duration.ofSeconds(5), Duration.ofMillis(10));
    }

    @Test
    void anExclusiveHoldWaitsForSharesAndSharesWaitForIt() throws Exception {
        try (SqliteSessionStore store = SqliteSessionStore.openIn(state); SessionLeases leases = leases(store)) {
            SessionLeases.Lease share = leases.acquire("s1");
            CompletableFuture<SessionLeases.Lease> exclusive = CompletableFuture.supplyAsync(() -> leases.acquireExclusive("s1", a -> { }));
            // Another share still joins the first one while the exclusive holder only waits.
            CompletableFuture.supplyAsync(() -> leases.acquire("s1")).get(10, TimeUnit.SECONDS).close();
            assertThat(exclusive).isNotDone();

            share.close();
            SessionLeases.Lease held = exclusive.get(10, TimeUnit.SECONDS);
            AtomicBoolean gaveUp = new AtomicBoolean();
            CompletableFuture<SessionLeases.Lease> waiting = CompletableFuture.supplyAsync(() -> leases.acquire("s1"));
            CompletableFuture<SessionLeases.Lease> givingUp = CompletableFuture.supplyAsync(() -> leases.acquire("s1", a -> { }, () -> {
                gaveUp.set(true);
                throw new IllegalStateException("evicted meanwhile");
            }));
            assertThatThrownBy(() -> givingUp.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .hasRootCauseMessage("evicted meanwhile");
            assertThat(gaveUp).isTrue();
            assertThat(waiting).isNotDone();

            held.close();
            waiting.get(10, TimeUnit.SECONDS).close();
        }
    }

    @Test
    void aThreadThatSharesTheLeaseJoinsInsteadOfWaitingForItself() throws Exception {
        try (SqliteSessionStore store = SqliteSessionStore.openIn(state); SessionLeases leases = leases(store)) {
            SessionLeases.Lease share = leases.acquire("s1");
            CompletableFuture<SessionLeases.Lease> nested = CompletableFuture.supplyAsync(() -> leases.acquireExclusive("s1", a -> { }));
            // From another thread it waits; from the sharing thread it joins at once.
            SessionLeases.Lease own = leases.acquireExclusive("s1", a -> { });
            assertThat(nested).isNotDone();
            own.close();
            share.close();
            nested.get(10, TimeUnit.SECONDS).close();
        }
    }
}
