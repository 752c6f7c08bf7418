package io.sandboxfactory.core.internal.gateway;

import io.sandboxfactory.api.host.RepositoryAccess;

import java.util.List;
import java.util.Map;

/**
 * How a session's sandbox reaches its repositories.
 *
 * @param overlayEnv variables for the sandbox's env overlay (every command of the session gets them)
 * @param sandboxAccess the access the sandbox's own git commands use, in the session's repository
 *     order: without a token for every repository the gateway serves
 */
public record GitRoute(Map<String, String> overlayEnv, List<RepositoryAccess> sandboxAccess) {

    public GitRoute {
        overlayEnv = Map.copyOf(overlayEnv);
        sandboxAccess = List.copyOf(sandboxAccess);
    }
}
