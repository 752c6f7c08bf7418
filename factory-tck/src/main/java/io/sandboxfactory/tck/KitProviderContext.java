package io.sandboxfactory.tck;

import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.ProviderContext;
import io.sandboxfactory.api.error.StandardErrorCode;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** The {@link ProviderContext} the kit opens providers with: one test's state directory, owner and host objects. */
record KitProviderContext(Path stateDirectory, String owner, Map<Class<?>, Object> hostObjects) implements ProviderContext {

    KitProviderContext {
        hostObjects.forEach((type, value) -> {
            if (!type.isInstance(value)) {
                throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Host object " + value + " is registered for " + type.getName()
                        + " but is not an instance of it; ProviderUnderTest.hostObjects() must key each object by a type it implements.");
            }
        });
        hostObjects = Map.copyOf(hostObjects);
    }

    @Override
    public <T> Optional<T> lookup(Class<T> type) {
        return Optional.ofNullable(hostObjects.get(type)).map(type::cast);
    }
}
