package io.sandboxfactory.core.internal.wiring;

import io.sandboxfactory.api.error.ErrorCodeSupplier;
import io.sandboxfactory.api.error.ErrorCoded;
import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.InvalidConfigValueException;
import io.sandboxfactory.api.ProviderContext;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.api.SandboxProvider;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.FactoryConfigurationException;
import io.sandboxfactory.core.internal.config.ConfigOrigins;
import io.sandboxfactory.core.config.InvalidConfigException;
import io.sandboxfactory.core.internal.config.ConfigErrors;

import java.util.Set;

/**
 * Opens the selected provider with its bound config and checks what it returned: a factory that
 * names itself after the provider and declares the capabilities sessions need. Any failure is a
 * {@link FactoryConfigurationException} whose message names the provider; a factory that fails the
 * checks is closed before the exception leaves.
 */
final class ProviderOpener {

    private ProviderOpener() {
    }

    /** @param origins where the provider's keys came from, to name a value its {@code open} rejects */
    static FactorySandbox open(String name, SandboxProvider<?> provider, Object config, ProviderContext context, ConfigOrigins origins) {
        FactorySandbox opened;
        try {
            opened = openTyped(provider, config, context);
        } catch (FactoryConfigurationException e) {
            throw e;
        } catch (InvalidConfigValueException e) {
            // The provider names keys within its section; the framework owns the prefix and knows each value's source.
            throw ConfigErrors.rejectedBy(name, e, origins);
        } catch (RuntimeException e) {
            String message = String.valueOf(e.getMessage());
            // A provider's own code (DOCKER_UNAVAILABLE, INVALID_CONFIG) says more than ours, and decides the exit code.
            ErrorCodeSupplier code = e instanceof ErrorCoded coded ? coded.errorCode() : StandardErrorCode.PROVIDER_OPEN_FAILED;
            throw new FactoryConfigurationException(code, message.contains("'" + name + "'") ? message
                    : "Sandbox provider '" + name + "' could not be opened: " + message, e);
        }
        if (opened == null) {
            throw new FactoryConfigurationException(StandardErrorCode.PROVIDER_OPEN_FAILED, "Sandbox provider '" + name + "' ("
                    + provider.getClass().getName() + ") returned no FactorySandbox from open().");
        }
        try {
            check(name, provider, opened);
        } catch (RuntimeException e) {
            closeQuietly(opened, e);
            throw e;
        }
        return opened;
    }

    private static <C> FactorySandbox openTyped(SandboxProvider<C> provider, Object config, ProviderContext context) {
        return provider.open(provider.configType().cast(config), context);
    }

    private static void check(String name, SandboxProvider<?> provider, FactorySandbox opened) {
        Set<SandboxCapability> capabilities = opened.capabilities();
        if (capabilities == null) {
            throw new FactoryConfigurationException(StandardErrorCode.PROVIDER_OPEN_FAILED, "Sandbox provider '" + name + "' ("
                    + provider.getClass().getName() + ") returned null from capabilities(); it must return a set, empty when it"
                    + " declares none.");
        }
    }

    private static void closeQuietly(FactorySandbox opened, RuntimeException failure) {
        try {
            opened.close();
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
    }
}
