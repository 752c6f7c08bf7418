package io.sandboxfactory.core.internal.wiring;

import java.util.Map;

/**
 * The environment variables a factory was built with (by default the process's), which providers
 * see as {@link io.sandboxfactory.api.ProviderContext#environment()}: a host that serves several
 * callers from one process builds one factory per environment instead of leaking its own.
 */
record HostEnvironment(Map<String, String> variables) {

    public HostEnvironment {
        variables = Map.copyOf(variables);
    }
}
