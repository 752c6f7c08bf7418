package io.sandboxfactory.provider.docker;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The labels that mark a container as the sandbox of one session, made by this provider for one
 * {@link Tenant}. Lookups check them, so a container is never adopted or removed on its name alone.
 * A container made before the tenant label existed carries only the owner: it still counts as the
 * owner's (so its session finds it by its recorded id, and {@code sweep} lists it as before).
 */
final class SandboxLabels {

    static final String SESSION = "io.sandboxfactory.session";
    static final String PROVIDER = "io.sandboxfactory.provider";
    static final String OWNER = "io.sandboxfactory.owner";
    static final String TENANT = "io.sandboxfactory.tenant";

    private SandboxLabels() {
    }

    /** The labels of a new container: the configured ones, then ours (which cannot be overridden). */
    static Map<String, String> forContainer(Map<String, String> configured, String sessionId, Tenant tenant) {
        Map<String, String> labels = new LinkedHashMap<>(configured);
        labels.put(SESSION, sessionId);
        labels.putAll(ownedBy(tenant));
        return labels;
    }

    /** The labels every container and template image of {@code tenant} carries. */
    static Map<String, String> ownedBy(Tenant tenant) {
        return Map.of(PROVIDER, DockerSandboxProvider.NAME, OWNER, tenant.owner(), TENANT, tenant.key());
    }

    /** The labels every object of {@code tenant}'s owner carries, old ones included: list filters narrow with {@link #isOwnedBy}. */
    static Map<String, String> ownerFilter(Tenant tenant) {
        return Map.of(PROVIDER, DockerSandboxProvider.NAME, OWNER, tenant.owner());
    }

    /** Whether {@code labels} say the object belongs to {@code tenant}: its owner, and its tenant unless made before tenants. */
    static boolean isOwnedBy(Map<String, String> labels, Tenant tenant) {
        if (labels == null || !DockerSandboxProvider.NAME.equals(labels.get(PROVIDER)) || !tenant.owner().equals(labels.get(OWNER))) {
            return false;
        }
        String key = labels.get(TENANT);
        return key == null || key.equals(tenant.key());
    }
}
