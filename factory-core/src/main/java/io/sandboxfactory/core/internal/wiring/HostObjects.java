package io.sandboxfactory.core.internal.wiring;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Objects the host registered on the factory builder, by exact type (how the {@code custom}
 * provider receives the host's callback). Immutable; owned by one factory.
 */
public final class HostObjects {

    private final Map<Class<?>, Object> byType;

    private HostObjects(Map<Class<?>, Object> byType) {
        this.byType = Map.copyOf(byType);
    }

    /** The object registered for exactly {@code type}, if any. */
    public <T> Optional<T> lookup(Class<T> type) {
        return Optional.ofNullable(byType.get(type)).map(type::cast);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Collects host objects; a later registration for the same type replaces the earlier one. */
    public static final class Builder {
        private final Map<Class<?>, Object> byType = new LinkedHashMap<>();

        private Builder() {
        }

        public <T> Builder put(Class<T> type, T value) {
            Objects.requireNonNull(type, "type");
            byType.put(type, type.cast(Objects.requireNonNull(value, () -> "host object for " + type.getName())));
            return this;
        }

        public HostObjects build() {
            return new HostObjects(byType);
        }
    }
}
