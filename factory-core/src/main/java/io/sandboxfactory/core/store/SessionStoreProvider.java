package io.sandboxfactory.core.store;

import io.sandboxfactory.core.config.StoreConfig;

/**
 * A kind of {@link SessionStore} that config selects by {@code store.type} (design §5.15). Found
 * with {@link java.util.ServiceLoader} on the factory's class loader, like sandbox providers, so
 * the core never depends on a store's driver: list the implementation in {@code
 * META-INF/services/io.sandboxfactory.core.store.SessionStoreProvider}. It needs a public no-argument
 * constructor and does no I/O before {@link #open}. The type {@code sqlite} is built in.
 */
public interface SessionStoreProvider {

    /** What {@code store.type} names ({@code [a-z][a-z0-9-]*}, unique on the class path). */
    String type();

    /**
     * Opens the store, running its schema migrations. Bad settings fail with one sentence naming the
     * key and the rule; an unreachable store fails with {@link SessionStoreException}. Neither may
     * hold the password.
     */
    SessionStore open(StoreConfig config, StoreContext context);
}
