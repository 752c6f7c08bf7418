package io.sandboxfactory.tck;

import io.sandboxfactory.store.api.SessionStore;
import io.sandboxfactory.store.postgres.testing.TestPostgres;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/** The store contract against a real PostgreSQL server: two pooled store instances on one schema, as two hosts. */
class PostgresSessionStoreContractTest extends SessionStoreContract {

    private static final String SCHEMA = TestPostgres.freshSchema("contract");

    @TempDir
    Path state;

    @BeforeAll
    static void server() {
        TestPostgres.require();
    }

    @Override
    protected SessionStore openStore() {
        return TestPostgres.open(SCHEMA, state);
    }
}
