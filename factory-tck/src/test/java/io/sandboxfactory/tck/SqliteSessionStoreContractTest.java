package io.sandboxfactory.tck;

import io.sandboxfactory.store.api.SessionStore;
import io.sandboxfactory.core.store.SqliteSessionStore;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/** The store contract against the embedded default: two instances on one SQLite file, as two processes. */
class SqliteSessionStoreContractTest extends SessionStoreContract {

    @TempDir
    Path state;

    @Override
    protected SessionStore openStore() {
        return SqliteSessionStore.openIn(state);
    }
}
