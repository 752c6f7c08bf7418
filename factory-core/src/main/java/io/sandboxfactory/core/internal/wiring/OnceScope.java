package io.sandboxfactory.core.internal.wiring;

import com.google.inject.Key;
import com.google.inject.Provider;
import com.google.inject.Scope;

/**
 * The scope of {@link Once}: the first attempt's object, or its failure, for the injector's life.
 * Made per injector, never shared. In {@code Stage.PRODUCTION} such an object is made as soon as a
 * singleton needs it, when the injector is made.
 */
final class OnceScope implements Scope {

    @Override
    public <T> Provider<T> scope(Key<T> key, Provider<T> unscoped) {
        return new Provider<>() {
            private boolean made;
            private T value;
            private RuntimeException failure;

            @Override
            public synchronized T get() {
                if (failure != null) {
                    throw failure;
                }
                if (!made) {
                    try {
                        value = unscoped.get();
                    } catch (RuntimeException e) {
                        failure = e;
                        throw e;
                    }
                    made = true;
                }
                return value;
            }

            @Override
            public String toString() {
                return "Once(" + unscoped + ")";
            }
        };
    }

    @Override
    public String toString() {
        return "Once";
    }
}
