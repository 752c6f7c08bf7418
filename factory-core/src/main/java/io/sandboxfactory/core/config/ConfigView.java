package io.sandboxfactory.core.config;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * A factory's effective configuration as a host reads it ({@code SandboxFactory.config()}): every
 * value after the file, the {@code FACTORY_*} variables and the builder, each set and valid.
 * Read-only; how it was resolved stays inside the factory.
 */
public interface ConfigView {

    /** The selected provider's name. */
    String provider();

    /** The absolute state directory. */
    Path stateDirectory();

    /** Who owns the sandboxes (labels, names). */
    String owner();

    /** Where the settings came from: a file path, or a description. */
    String origin();

    RepositoryDefaults repository();

    Timeouts timeouts();

    Lifecycle lifecycle();

    /** The multi-repository environments by name. */
    Map<String, EnvironmentConfig> environments();

    StoreConfig store();

    TemplatesConfig templates();

    CacheConfig cache();

    JournalConfig journal();

    /** Git in the sandboxes; its identity has both parts set. */
    GitConfig git();

    /** What network sessions may reach. */
    EgressConfig egress();

    /** The bound config of provider {@code name}, if its section was configured or it is the selected one. */
    <C> Optional<C> providerConfig(String name, Class<C> type);
}
