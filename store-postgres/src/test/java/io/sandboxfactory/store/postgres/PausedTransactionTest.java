package io.sandboxfactory.store.postgres;

import com.zaxxer.hikari.HikariDataSource;
import io.sandboxfactory.core.config.StoreConfig;
import io.sandboxfactory.store.api.LeaseAttempt;
import io.sandboxfactory.store.api.LeaseOwner;
import io.sandboxfactory.store.api.SessionStore;
import io.sandboxfactory.store.api.StoreContext;
import io.sandboxfactory.store.postgres.testing.TestPostgres;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A replica paused in the middle of a store transaction (SIGSTOP, a frozen VM) while it holds its
 * lease row locked: the server ends its connection after one lease time, so another replica can
 * take the lease over instead of being refused for as long as the pause lasts.
 */
class PausedTransactionTest {

    private static final Duration TTL = Duration.ofSeconds(1);

    @TempDir
    Path tmp;

    @BeforeAll
    static void server() {
        TestPostgres.require();
    }

    @Test
    void aConnectionPausedInsideATransactionIsEndedByTheServerSoTheLeaseItLockedCanBeTakenOver() throws Exception {
        String schema = TestPostgres.freshSchema("paused");
        StoreConfig config = new StoreConfig("postgres", Optional.of(TestPostgres.url()), Optional.of(TestPostgres.user()),
                Optional.of(TestPostgres.PASSWORD_VARIABLE), Optional.of(schema), Optional.of(2), TTL, Duration.ofSeconds(3));
        StoreContext context = new StoreContext(tmp, TestPostgres.environment());
        LeaseOwner paused = new LeaseOwner("paused", "elsewhere.invalid", 1, Optional.empty(), "");
        LeaseOwner taker = new LeaseOwner("taker", "elsewhere.invalid", 2, Optional.empty(), "");
        try (SessionStore store = new PostgresStoreProvider().open(config, context);
             HikariDataSource replica = new HikariDataSource(PostgresStoreProvider.poolConfig(TestPostgres.url(), config, context));
             Connection pausedMidway = replica.getConnection()) {
            assertThat(store.tryAcquireLease("s", paused, TTL).acquired()).isTrue();
            // The paused replica's transaction holds the lease row, as a renewal or a fenced write does, and never ends.
            pausedMidway.setAutoCommit(false);
            try (PreparedStatement lock = pausedMidway.prepareStatement("SELECT fencing_token FROM leases WHERE session_id = 's' FOR UPDATE")) {
                lock.executeQuery().close();
            }
            assertThat(store.tryAcquireLease("s", taker, TTL).acquired()).as("while the row is locked").isFalse();

            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            LeaseAttempt attempt = store.tryAcquireLease("s", taker, TTL);
            while (!attempt.acquired() && System.nanoTime() < deadline) {
                Thread.sleep(50);
                attempt = store.tryAcquireLease("s", taker, TTL);
            }
            assertThat(attempt.acquired()).as("taken over once the server ended the paused transaction").isTrue();
            assertThat(attempt.fencingToken()).isEqualTo(2);
            assertThatThrownBy(() -> pausedMidway.prepareStatement("SELECT 1").executeQuery())
                    .isInstanceOf(SQLException.class).hasMessageContaining("idle-in-transaction timeout");
        }
    }
}
