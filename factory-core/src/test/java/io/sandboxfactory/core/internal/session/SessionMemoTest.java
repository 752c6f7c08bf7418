package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.core.testing.MemorySandbox;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SessionMemoTest {

    private final SessionMemo memo = new SessionMemo();

    private static MastraSandbox<?> sandbox(String id) {
        return new MemorySandbox(id, "test", "test");
    }

    @Test
    void sixtyFourThreadsAskingForOneSessionConstructItOnce() throws Exception {
        int threads = 64;
        AtomicInteger constructions = new AtomicInteger();
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<SessionEntry>> results = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                results.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return memo.getOrCreate("shared", () -> {
                        constructions.incrementAndGet();
                        Thread.yield(); // widen the window in which a second construction could sneak in
                        return sandbox("shared");
                    });
                }));
            }
            ready.await();
            go.countDown();
            SessionEntry first = results.get(0).get(30, TimeUnit.SECONDS);
            for (Future<SessionEntry> result : results) {
                assertThat(result.get(30, TimeUnit.SECONDS)).isSameAs(first);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(constructions).hasValue(1);
    }

    @Test
    void peekNeverConstructs() {
        assertThat(memo.peek("s")).isEmpty();
        assertThat(memo.sessionIds()).isEmpty();

        SessionEntry entry = memo.getOrCreate("s", () -> sandbox("s"));

        assertThat(memo.peek("s")).containsSame(entry);
        assertThat(memo.peek("other")).isEmpty();
        assertThat(memo.sessionIds()).containsExactly("s");
    }

    @Test
    void evictDropsTheEntryAndNotifiesListeners() {
        List<String> calls = new ArrayList<>();
        memo.addEvictionListener((id, evicted) -> calls.add(id + ":" + evicted.map(e -> e.sandbox().id()).orElse("none")));
        SessionEntry entry = memo.getOrCreate("s", () -> sandbox("s"));

        Optional<SessionEntry> evicted = memo.evict("s");
        memo.evict("never-held");

        assertThat(evicted).containsSame(entry);
        assertThat(memo.peek("s")).isEmpty();
        assertThat(calls).containsExactly("s:s", "never-held:none");
        assertThat(memo.getOrCreate("s", () -> sandbox("s"))).isNotSameAs(entry);
    }

    @Test
    void allListenersRunEvenWhenOneFails() {
        List<String> calls = new ArrayList<>();
        memo.addEvictionListener((id, evicted) -> {
            throw new IllegalStateException("listener broke");
        });
        Runnable unregister = memo.addEvictionListener((id, evicted) -> calls.add(id));

        assertThatThrownBy(() -> memo.evict("s")).hasMessage("listener broke");
        unregister.run();
        assertThatThrownBy(() -> memo.evict("t")).hasMessage("listener broke");

        assertThat(calls).containsExactly("s");
    }

    @Test
    void aFailingSupplierLeavesNoEntryAndTheNextCallRetries() {
        assertThatThrownBy(() -> memo.getOrCreate("s", () -> {
            throw new IllegalStateException("provider down");
        })).hasMessage("provider down");

        assertThat(memo.peek("s")).isEmpty();
        assertThat(memo.getOrCreate("s", () -> sandbox("s")).sandbox().id()).isEqualTo("s");
    }

    @Test
    void aSupplierMayUseTheMemoForOtherSessionsButNotItsOwn() {
        SessionEntry outer = memo.getOrCreate("outer", () -> {
            memo.getOrCreate("inner", () -> sandbox("inner"));
            return sandbox("outer");
        });

        assertThat(outer.sandbox().id()).isEqualTo("outer");
        assertThat(memo.peek("inner")).isPresent();
        assertThatThrownBy(() -> memo.getOrCreate("loop", () -> memo.getOrCreate("loop", () -> sandbox("loop")).sandbox()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("asked the memo for the same session");
        assertThat(memo.peek("loop")).isEmpty();
    }

    @Test
    void workdirAndOwnRepoAreSetOnceFirstValueWins() {
        SessionEntry entry = memo.getOrCreate("s", () -> sandbox("s"));

        assertThat(entry.workdir()).isEmpty();
        assertThat(entry.resolveWorkdir("/work/s")).isEqualTo("/work/s");
        assertThat(entry.resolveWorkdir("/elsewhere")).isEqualTo("/work/s");
        assertThat(entry.workdir()).contains("/work/s");
        assertThat(entry.claimOwnRepo("acme/widgets")).isEqualTo("acme/widgets");
        assertThat(entry.claimOwnRepo("acme/other")).isEqualTo("acme/widgets");
        assertThat(entry.addRepo("acme/widgets")).isTrue();
        assertThat(entry.addRepo("acme/widgets")).isFalse();
        assertThat(entry.repos()).containsExactly("acme/widgets");
    }
}
