package io.sandboxfactory.core.internal.store;

import io.sandboxfactory.store.api.LeaseAttempt;
import io.sandboxfactory.store.api.LeaseOwner;
import io.sandboxfactory.core.store.SqliteSessionStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

class SessionLeasesTest {

    @TempDir
    Path state;

    @Test
    void aSecondOwnerWaitsAndSaysSoUntilTheFirstReleases() throws Exception {
        try (SqliteSessionStore store = SqliteSessionStore.openIn(state);
             SessionLeases first = new SessionLeases(store, LeaseOwner.forThisProcess(), Duration.ofSeconds(2), Duration.ofMillis(20));
             SessionLeases second = new SessionLeases(store, LeaseOwner.forThisProcess(), Duration.ofSeconds(2), Duration.ofMillis(20))) {
            SessionLeases.Lease held = first.acquire("s1");
            CountDownLatch waiting = new CountDownLatch(1);
            AtomicReference<LeaseAttempt> seen = new AtomicReference<>();
            CompletableFuture<SessionLeases.Lease> other = CompletableFuture.supplyAsync(() -> second.acquire("s1", attempt -> {
                seen.set(attempt);
                waiting.countDown();
            }));
            assertThat(waiting.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(seen.get().holder()).isEqualTo(first.owner());
            assertThat(other).isNotDone();
            held.close();
            held.close(); // closing twice gives back one share only once
            other.get(10, TimeUnit.SECONDS).close();
        }
    }

    @Test
    void theHeartbeatKeepsALongHeldLeaseAlive() throws Exception {
        try (SqliteSessionStore store = SqliteSessionStore.openIn(state);
             SessionLeases first = new SessionLeases(store, LeaseOwner.forThisProcess(), Duration.ofMillis(1500), Duration.ofMillis(20))) {
            LeaseOwner intruder = LeaseOwner.forThisProcess();
            try (SessionLeases.Lease held = first.acquire("s1")) {
                for (int i = 0; i < 10; i++) {
                    Thread.sleep(300); // 3 s in total, twice the time-to-live
                    assertThat(store.tryAcquireLease("s1", intruder, Duration.ofSeconds(1)).acquired()).isFalse();
                }
            }
            assertThat(store.tryAcquireLease("s1", intruder, Duration.ofSeconds(1)).acquired()).isTrue();
        }
    }

    @Test
    void sharesWithinOneOwnerAreCountedAndTheLastReleases() {
        try (SqliteSessionStore store = SqliteSessionStore.openIn(state);
             SessionLeases leases = new SessionLeases(store, LeaseOwner.forThisProcess(), Duration.ofSeconds(5), Duration.ofMillis(20))) {
            LeaseOwner other = LeaseOwner.forThisProcess();
            SessionLeases.Lease a = leases.acquire("s1");
            SessionLeases.Lease b = leases.acquire("s1");
            a.close();
            assertThat(store.tryAcquireLease("s1", other, Duration.ofSeconds(1)).acquired()).isFalse();
            b.close();
            assertThat(store.tryAcquireLease("s1", other, Duration.ofSeconds(1)).acquired()).isTrue();
        }
    }

    @Test
    void manyThreadsOfTwoOwnersNeverHoldTheLeaseTogether() throws Exception {
        try (SqliteSessionStore storeA = SqliteSessionStore.openIn(state);
             SqliteSessionStore storeB = SqliteSessionStore.openIn(state);
             SessionLeases a = new SessionLeases(storeA, LeaseOwner.forThisProcess(), Duration.ofSeconds(5), Duration.ofMillis(5));
             SessionLeases b = new SessionLeases(storeB, LeaseOwner.forThisProcess(), Duration.ofSeconds(5), Duration.ofMillis(5))) {
            AtomicInteger holdersA = new AtomicInteger();
            AtomicInteger holdersB = new AtomicInteger();
            AtomicInteger overlaps = new AtomicInteger();
            CompletableFuture<?>[] all = new CompletableFuture<?>[8];
            for (int t = 0; t < all.length; t++) {
                boolean useA = t % 2 == 0;
                all[t] = CompletableFuture.runAsync(() -> {
                    for (int i = 0; i < 10; i++) {
                        try (SessionLeases.Lease lease = (useA ? a : b).acquire("s1")) {
                            (useA ? holdersA : holdersB).incrementAndGet();
                            if ((useA ? holdersB : holdersA).get() > 0) {
                                overlaps.incrementAndGet();
                            }
                            Thread.onSpinWait();
                            (useA ? holdersA : holdersB).decrementAndGet();
                        }
                    }
                });
            }
            CompletableFuture.allOf(all).get(120, TimeUnit.SECONDS);
            assertThat(overlaps).hasValue(0);
        }
    }
}
