package io.sandboxfactory.core.internal.wiring;

import com.google.inject.Binding;
import com.google.inject.Key;
import com.google.inject.matcher.AbstractMatcher;
import com.google.inject.matcher.Matcher;
import com.google.inject.spi.ProvisionListener;
import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.store.api.SessionStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * What one factory opened and must close: the provider and store it opened itself, then every
 * closeable object its injector made, in the order they came to be. {@link #close()} closes them
 * newest first, so an object is closed before anything it was built from (the template builds
 * before the opener they use, the opener before the leases, the store, the provider). Objects the
 * host handed in (a store of its own) are never registered. Owned by one factory; thread-safe.
 */
public final class OwnedResources implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(OwnedResources.class);

    private final List<AutoCloseable> opened = new ArrayList<>();
    private final Set<Object> known = Collections.newSetFromMap(new IdentityHashMap<>());
    private boolean closed;

    /** Registers {@code resource} to be closed with the factory; once per object, however often it is provisioned. */
    public synchronized <T extends AutoCloseable> T own(T resource) {
        if (closed) {
            throw new IllegalStateException("This factory is closed; " + resource.getClass().getName() + " cannot be registered.");
        }
        if (known.add(resource)) {
            opened.add(resource);
        }
        return resource;
    }

    /** What {@link #close()} will close, oldest first. */
    public synchronized List<Object> owned() {
        return List.copyOf(opened);
    }

    /**
     * The bindings whose objects the factory owns: all but what the host handed in (its listener,
     * its settings) and the store, which the factory owns only when it opened it itself.
     */
    public static Matcher<Binding<?>> closeables() {
        Set<Key<?>> handedIn = Set.of(Key.get(SessionStore.class), Key.get(SessionListener.class), Key.get(FactorySettings.class),
                Key.get(HostObjects.class), Key.get(OwnedResources.class));
        return new AbstractMatcher<>() {
            @Override
            public boolean matches(Binding<?> binding) {
                return !handedIn.contains(binding.getKey());
            }
        };
    }

    /** A listener that registers every closeable object the injector provisions (singletons: once each). */
    public ProvisionListener listener() {
        return new ProvisionListener() {
            @Override
            public <T> void onProvision(ProvisionInvocation<T> provision) {
                if (provision.provision() instanceof AutoCloseable closeable) {
                    own(closeable);
                }
            }
        };
    }

    /**
     * Closes everything registered, newest first, once. Every one is closed even when another
     * fails; the first failure is thrown with the others suppressed.
     */
    @Override
    public void close() {
        List<AutoCloseable> toClose;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            toClose = new ArrayList<>(opened);
        }
        Collections.reverse(toClose);
        RuntimeException failure = null;
        for (AutoCloseable resource : toClose) {
            try {
                resource.close();
            } catch (Exception e) {
                LOG.debug("Closing {} failed: {}", resource.getClass().getName(), e.getMessage());
                RuntimeException wrapped = e instanceof RuntimeException runtime ? runtime
                        : new IllegalStateException(resource.getClass().getName() + " could not be closed: " + e.getMessage(), e);
                if (failure == null) {
                    failure = wrapped;
                } else {
                    failure.addSuppressed(wrapped);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
