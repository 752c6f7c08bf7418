package io.sandboxfactory.store.api;

import java.time.Duration;
import java.util.Optional;

/**
 * The {@code store:} section of the factory's config, as a {@link SessionStoreProvider} reads it.
 * Read-only and already validated by the factory (a type, a URL without credentials, a plain
 * identifier as schema, a pool of 1 to 64, a lease of at least 300 ms and a connect timeout of at
 * least 250 ms), so a store only checks what is its own (which URLs it accepts). The password is
 * never here: {@link #passwordEnv()} names the variable of {@link StoreContext#variable} that holds it.
 *
 * @since 0.1.0
 */
public interface StoreSettings {

    /** What {@code store.type} names ({@code sqlite}, {@code postgres}, a plugin's). */
    String type();

    /** The JDBC URL of a server store, without credentials. */
    Optional<String> url();

    /** The database user. */
    Optional<String> user();

    /** The environment variable holding the user's password. */
    Optional<String> passwordEnv();

    /** The database schema the store's tables live in (lower case; created when missing). */
    Optional<String> schema();

    /** At most this many connections per factory; the store's default when empty. */
    Optional<Integer> poolSize();

    /** How long a session lease lives without a heartbeat (renewed every third of it). */
    Duration leaseTtl();

    /** How long an operation waits for a connection before it fails (the database is down). */
    Duration connectTimeout();
}
