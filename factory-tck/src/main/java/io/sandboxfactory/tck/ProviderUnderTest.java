package io.sandboxfactory.tck;

import io.sandboxfactory.api.SandboxProvider;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * What a provider author hands the kit: the provider and how to configure it. The kit opens the
 * provider itself, once per test and again whenever a case plays a second process.
 *
 * <p>{@link #config} must be deterministic for a given directory: the kit calls it again with the
 * same directory to open the provider "in another process", and expects that instance to reach
 * the sandboxes of the first one.
 *
 * @param <C> the provider's config type
 */
public interface ProviderUnderTest<C> {

    /** The provider under test; the kit opens it with {@link #config} and {@link #hostObjects}. */
    SandboxProvider<C> provider();

    /**
     * The provider's configuration for one test. {@code workDirectory} is an empty directory owned
     * by that test (for example the local provider's sessions root); a provider with remote
     * sandboxes may ignore it.
     */
    C config(Path workDirectory);

    /**
     * Host objects the provider looks up through {@link io.sandboxfactory.api.ProviderContext#lookup}
     * (the {@code custom} provider's callback, for example), keyed by the exact type it looks up.
     * Called with the same directory as {@link #config}, each time the provider is opened.
     */
    default Map<Class<?>, Object> hostObjects(Path workDirectory) {
        return Map.of();
    }

    /**
     * The repository a session sandbox clones, given the kit's fixture repository on the host (a
     * bare repository with one commit on {@code main}). The default, the host path, suits sandboxes
     * that see the host's files; override it for sandboxes that do not, for example to serve the
     * repository over {@code git://} on loopback to a container with host networking.
     */
    default String cloneUrl(Path hostRepository) {
        return hostRepository.toString();
    }

    /** The common case: a provider and a config made from the test's directory, no host objects. */
    static <C> ProviderUnderTest<C> of(SandboxProvider<C> provider, Function<Path, C> config) {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(config, "config");
        return new ProviderUnderTest<>() {
            @Override
            public SandboxProvider<C> provider() {
                return provider;
            }

            @Override
            public C config(Path workDirectory) {
                return config.apply(workDirectory);
            }
        };
    }
}
