package io.sandboxfactory.core.internal.store;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.FactoryConfigurationException;
import io.sandboxfactory.core.config.StoreConfig;
import io.sandboxfactory.core.internal.discovery.ErrorCodeOwners;
import io.sandboxfactory.core.store.SqliteSessionStore;
import io.sandboxfactory.store.api.SessionStore;
import io.sandboxfactory.store.api.SessionStoreProvider;
import io.sandboxfactory.store.api.StoreContext;
import io.sandboxfactory.store.api.StoreSettings;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The store types one factory can use: {@code sqlite}, built in, and every {@link
 * SessionStoreProvider} on its class loader. Discovered once per factory, never statically.
 */
public final class SessionStores {

    private final Map<String, SessionStoreProvider> byType;

    private SessionStores(Map<String, SessionStoreProvider> byType) {
        this.byType = byType;
    }

    /** Finds the providers on {@code loader}; broken entries and duplicate types fail together. */
    public static SessionStores discover(ClassLoader loader) {
        return discover(loader, new ErrorCodeOwners());
    }

    /** {@link #discover(ClassLoader)}, each store's error codes claimed in {@code codeOwners}. */
    public static SessionStores discover(ClassLoader loader, ErrorCodeOwners codeOwners) {
        Map<String, SessionStoreProvider> byType = new TreeMap<>();
        byType.put(StoreConfig.SQLITE, new Sqlite());
        List<String> problems = new ArrayList<>();
        var iterator = ServiceLoader.load(SessionStoreProvider.class, loader).iterator();
        while (true) {
            SessionStoreProvider provider;
            try {
                if (!iterator.hasNext()) {
                    break;
                }
                provider = iterator.next();
            } catch (ServiceConfigurationError e) {
                problems.add("a session store provider could not be loaded: " + e.getMessage());
                continue;
            }
            SessionStoreProvider earlier = byType.putIfAbsent(provider.type(), provider);
            if (earlier != null) {
                problems.add("session store type '" + provider.type() + "' is provided by both " + earlier.getClass().getName()
                        + " and " + provider.getClass().getName());
            }
            problems.addAll(codeOwners.claim("session store '" + provider.type() + "' (" + provider.getClass().getName() + ")",
                    provider.errorCodes()));
        }
        if (!problems.isEmpty()) {
            throw new FactoryConfigurationException(StandardErrorCode.STORE_DISCOVERY_FAILED, "Session store discovery failed: "
                    + String.join("; ", problems) + ".");
        }
        return new SessionStores(byType);
    }

    /** The provider of {@code config.type()}; an unknown type fails naming the available ones. */
    public SessionStoreProvider require(StoreConfig config) {
        SessionStoreProvider provider = byType.get(config.type());
        if (provider == null) {
            throw new FactoryConfigurationException(StandardErrorCode.UNKNOWN_STORE, "Unknown session store type '" + config.type() + "'; available: "
                    + byType.keySet() + (config.type().equals("postgres") ? " (the postgres store is the store-postgres jar)" : "") + ".");
        }
        return provider;
    }

    /** The embedded default, a file in the state directory. */
    private static final class Sqlite implements SessionStoreProvider {
        @Override
        public String type() {
            return StoreConfig.SQLITE;
        }

        @Override
        public SessionStore open(StoreSettings settings, StoreContext context) {
            return SqliteSessionStore.openIn(context.stateDirectory());
        }
    }
}
