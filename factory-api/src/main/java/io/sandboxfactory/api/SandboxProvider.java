package io.sandboxfactory.api;

import io.sandboxfactory.api.error.ErrorCodeSupplier;
import io.sandboxfactory.api.error.StandardErrorCode;
import java.util.List;

/**
 * The entry point of a provider jar, found with {@link java.util.ServiceLoader}: list the
 * implementing class in {@code META-INF/services/io.sandboxfactory.api.SandboxProvider}. It needs
 * a public no-argument constructor and must do no I/O until {@link #open}.
 *
 * <p>The framework owns the config section {@code providers.<name>}: it binds it to {@link
 * #configType()} (a record is best; unknown keys are errors) and hands {@link #open} that record
 * only. When the section is absent it binds an empty object, so the config type must supply
 * defaults for absent fields, and {@code open} never receives {@code null}. It must survive a Jackson round
 * trip (the kit writes a config as a section and binds it back): plain values (strings, numbers,
 * booleans, lists, maps, durations as strings), no host objects. A default that depends on the
 * host, such as a directory under {@link ProviderContext#stateDirectory()}, stays null in the
 * record and is resolved in {@link #open}.
 *
 * <p>Every key can be overridden from the environment as {@code
 * FACTORY_PROVIDERS_<NAME>_<KEY>}: the name and key upper-cased, {@code -} and {@code .} as
 * {@code _}, and a camel-case boundary as {@code _}. So provider {@code my-prov}'s key {@code
 * fooBar} is {@code FACTORY_PROVIDERS_MY_PROV_FOO_BAR}.
 *
 * @param <C> the provider's config type
 * @since 0.1.0
 */
public interface SandboxProvider<C> {

    /**
     * The name users select in config; must match {@code [a-z][a-z0-9-]*} and be unique. The one
     * place the name is declared: the framework names the opened {@link FactorySandbox} and its
     * sandboxes with it.
     */
    String name();

    /** The type the {@code providers.<name>} config section binds to. */
    Class<C> configType();

    /** Opens a configured provider instance. May validate the config and fail with a clear message. */
    FactorySandbox open(C config, ProviderContext context);

    /** One line saying what this provider does, for listings. */
    default String description() {
        return "";
    }

    /**
     * The codes this provider raises beyond {@link StandardErrorCode}, usually the values of its own
     * enum implementing {@link ErrorCodeSupplier}. Discovery fails when a name is one another module
     * already uses, and {@code docs/errors.md} lists them under the provider.
     */
    default List<ErrorCodeSupplier> errorCodes() {
        return List.of();
    }
}
