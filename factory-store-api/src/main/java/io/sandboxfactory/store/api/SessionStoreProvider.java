package io.sandboxfactory.store.api;

import io.sandboxfactory.api.error.ErrorCodeSupplier;

import java.util.List;

/**
 * A kind of {@link SessionStore} that config selects by {@code store.type} (design §5.15). Found
 * with {@link java.util.ServiceLoader} on the factory's class loader, like sandbox providers, so
 * the core never depends on a store's driver: list the implementation in {@code
 * META-INF/services/io.sandboxfactory.store.api.SessionStoreProvider}. It needs a public no-argument
 * constructor and does no I/O before {@link #open}. The type {@code sqlite} is built in. A store
 * is written against this package and {@code factory-api} only: a plugin's class loader sees
 * nothing else of the factory.
 *
 * @since 0.1.0
 */
public interface SessionStoreProvider {

    /** What {@code store.type} names ({@code [a-z][a-z0-9-]*}, unique on the class path). */
    String type();

    /**
     * Opens the store, running its schema migrations. Bad settings fail with one sentence naming the
     * key and the rule ({@link StoreConfigurationException}); an unreachable store fails with {@link
     * SessionStoreException}. Neither may hold the password.
     */
    SessionStore open(StoreSettings settings, StoreContext context);

    /**
     * The codes this store raises beyond {@link io.sandboxfactory.api.error.StandardErrorCode} (which has
     * {@code SESSION_STORE} for any read or write that failed), usually the values of its own enum
     * implementing {@link ErrorCodeSupplier}. Discovery fails when a name is one another module
     * already uses.
     */
    default List<ErrorCodeSupplier> errorCodes() {
        return List.of();
    }
}
