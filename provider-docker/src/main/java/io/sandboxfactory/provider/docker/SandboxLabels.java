package io.sandboxfactory.provider.docker;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The labels that mark a container as the sandbox of one session, made by this provider for one
 * owner. Lookups check them, so a container is never adopted or removed on its name alone.
 */
final class SandboxLabels {

    static final String SESSION = "io.sandboxfactory.session";
    static final String PROVIDER = "io.sandboxfactory.provider";
    static final String OWNER = "io.sandboxfactory.owner";

    private SandboxLabels() {
    }

    /** The labels of a new container: the configured ones, then ours (which cannot be overridden). */
    static Map<String, String> forContainer(Map<String, String> configured, String sessionId, String owner) {
        Map<String, String> labels = new LinkedHashMap<>(configured);
        labels.put(SESSION, sessionId);
        labels.put(PROVIDER, DockerSandboxProvider.NAME);
        labels.put(OWNER, owner);
        return labels;
    }

    /** The labels every container of {@code owner} carries, for list filters. */
    static Map<String, String> ownedBy(String owner) {
        return Map.of(PROVIDER, DockerSandboxProvider.NAME, OWNER, owner);
    }

    /** Whether {@code labels} say the container belongs to {@code owner}. */
    static boolean isOwnedBy(Map<String, String> labels, String owner) {
        return labels != null && DockerSandboxProvider.NAME.equals(labels.get(PROVIDER)) && owner.equals(labels.get(OWNER));
    }
}
