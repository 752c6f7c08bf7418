package io.sandboxfactory.core.internal.wiring;

import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.internal.config.ConfigOverrides;
import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.store.api.SessionStore;

import java.nio.file.Path;
import io.sandboxfactory.api.error.ErrorCodeSupplier;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the host set on the factory builder: the values the factory's modules are built from.
 *
 * @param configFile the YAML or JSON file to read, when one was given
 * @param configObject the settings built in code, when given instead of a file
 * @param classLoader what providers and stores are discovered with
 * @param overrides provider, state directory and owner set on the builder
 * @param environment the host environment ({@code FACTORY_*} overrides, the providers' environment)
 * @param workingDirectory what relative paths resolve against
 * @param hostObjects objects providers look up by type
 * @param sessionStore the host's own store, never closed by the factory; empty: the configured one
 * @param listener observes session progress and commands
 * @param repositoryToken a fresh token per start for sessions without their own access source
 * @param commandOrigin what the journal records as the origin of commands
 * @param journalSize the journal's size when the builder set one (it beats {@code journal.maxEntries})
 * @param hostErrorCodes the host's own error codes by owner, which no provider or store may reuse
 */
public record FactorySettings(Optional<Path> configFile, Optional<FactoryConfig> configObject, ClassLoader classLoader,
                              ConfigOverrides overrides, Map<String, String> environment, Path workingDirectory, HostObjects hostObjects,
                              Optional<SessionStore> sessionStore, SessionListener listener, Optional<Supplier<String>> repositoryToken,
                              String commandOrigin, Optional<Integer> journalSize,
                              Map<String, List<ErrorCodeSupplier>> hostErrorCodes) {

    public FactorySettings {
        Objects.requireNonNull(configFile, "configFile");
        Objects.requireNonNull(configObject, "configObject");
        Objects.requireNonNull(classLoader, "classLoader");
        Objects.requireNonNull(overrides, "overrides");
        environment = Map.copyOf(environment);
        Objects.requireNonNull(workingDirectory, "workingDirectory");
        Objects.requireNonNull(hostObjects, "hostObjects");
        Objects.requireNonNull(sessionStore, "sessionStore");
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(repositoryToken, "repositoryToken");
        Objects.requireNonNull(commandOrigin, "commandOrigin");
        Objects.requireNonNull(journalSize, "journalSize");
        hostErrorCodes = Map.copyOf(hostErrorCodes);
    }
}
