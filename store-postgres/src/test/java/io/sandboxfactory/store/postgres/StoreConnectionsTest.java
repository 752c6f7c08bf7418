package io.sandboxfactory.store.postgres;

import com.zaxxer.hikari.HikariConfig;
import io.sandboxfactory.core.config.StoreConfig;
import io.sandboxfactory.store.api.SessionStore;
import io.sandboxfactory.store.api.SessionStoreException;
import io.sandboxfactory.store.api.StoreContext;
import io.sandboxfactory.store.postgres.testing.TestPostgres;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.PGConnection;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The store's connections when its pool has none to give: a pool that holds none (it is still
 * backing off after an outage; here it cannot make one at all) yields one made directly with the
 * same settings, a pool whose connections are all in use does not grow past {@code poolSize}, and
 * an operation that waited for one in vain is reported as a busy store ({@code STORE_BUSY}), not an
 * unreachable one.
 */
class StoreConnectionsTest {

    @TempDir
    Path tmp;

    @BeforeAll
    static void server() {
        TestPostgres.require();
    }

    private HikariConfig poolOf(String schema, int size) {
        StoreConfig config = new StoreConfig("postgres", Optional.of(TestPostgres.url()), Optional.of(TestPostgres.user()),
                Optional.of(TestPostgres.PASSWORD_VARIABLE), Optional.of(schema), Optional.of(size), Duration.ofSeconds(3),
                Duration.ofMillis(500));
        return PostgresStoreProvider.poolConfig(TestPostgres.url(), config, new StoreContext(tmp, TestPostgres.environment()));
    }

    @Test
    void aPoolThatHoldsNoConnectionAndCannotMakeOneInTimeYieldsADirectOneWithTheSameSettings() throws Exception {
        String schema = TestPostgres.freshSchema("direct");
        try (SessionStore ignored = TestPostgres.open(schema, tmp)) {
            // The schema exists now; the session setting below is the store's own.
        }
        HikariConfig pool = poolOf(schema, 2);
        // Every connection the pool makes fails its init statement, so it never holds one.
        pool.setConnectionInitSql("SELECT 1 / 0");
        try (StoreConnections connections = new StoreConnections(pool, Duration.ofSeconds(1)); Connection c = connections.get();
             Statement s = c.createStatement()) {
            assertThat(c.getClass().getName()).as("not a pooled proxy").doesNotStartWith("com.zaxxer");
            assertThat(c.isWrapperFor(PGConnection.class)).isTrue();
            assertThat(c.getSchema()).isEqualTo(schema);
            try (ResultSet rs = s.executeQuery("SHOW idle_in_transaction_session_timeout")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("3s");
            }
        }
    }

    @Test
    void aPoolWhoseConnectionsAreAllInUseDoesNotGrowPastItsSize() throws Exception {
        try (StoreConnections connections = new StoreConnections(poolOf(TestPostgres.freshSchema("full"), 1), Duration.ofSeconds(1));
             Connection held = connections.get()) {
            assertThat(held.getClass().getName()).startsWith("com.zaxxer");
            assertThatThrownBy(connections::get).isInstanceOf(SQLTransientConnectionException.class);
        }
    }

    @Test
    void aStoreWhosePoolStaysFullIsBusyNotUnreachable() throws Exception {
        String schema = TestPostgres.freshSchema("busy");
        StoreConnections connections = new StoreConnections(poolOf(schema, 1), Duration.ofSeconds(1));
        try (PostgresSessionStore store = PostgresSessionStore.open(connections, Optional.of(schema), "postgres test")) {
            assertThat(store.find("s1")).as("the server answers").isEmpty();
            try (Connection held = connections.get()) {
                assertThatThrownBy(() -> store.find("s1"))
                        .isInstanceOfSatisfying(SessionStoreException.class, busy -> {
                            assertThat(busy.errorCode()).isEqualTo(PostgresErrorCode.STORE_BUSY.toErrorCode());
                            assertThat(busy.getMessage()).isEqualTo("Session store postgres test is busy: all 1 connections of this"
                                    + " process were in use for 1s; raise store.poolSize or store.connectTimeout (an operation waits 6"
                                    + " times it), or run fewer commands at once.");
                        });
            }
            assertThat(store.find("s1")).as("free again once the holder let go").isEmpty();
        }
    }
}
