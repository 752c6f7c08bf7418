package io.sandboxfactory.provider.kubernetes;

import io.fabric8.kubernetes.api.model.ObjectMeta;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The labels and annotations that mark a pod, claim or policy as the sandbox of one session, made
 * by this provider for one owner. Label values are limited to 63 characters of {@code
 * [A-Za-z0-9_.-]}, so the session label holds the object name and the raw session id and owner go
 * in annotations; lookups check both, so an object is never adopted or removed on its name alone.
 */
final class SessionLabels {

    static final String SESSION = "io.sandboxfactory/session";
    static final String PROVIDER = "io.sandboxfactory/provider";
    static final String OWNER = "io.sandboxfactory/owner";
    /** The factory's tenant ({@link ResourceNames#tenant}): owner and state directory; absent on objects of earlier versions. */
    static final String TENANT = "io.sandboxfactory/tenant";
    static final String SESSION_ID_ANNOTATION = "io.sandboxfactory/session-id";
    static final String OWNER_ANNOTATION = "io.sandboxfactory/owner";

    /** Label keys and annotations under this prefix belong to the provider. */
    static final String RESERVED_PREFIX = "io.sandboxfactory/";

    private static final Pattern LABEL_VALUE = Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?");

    private SessionLabels() {
    }

    /** The labels of a session's objects: the configured ones, then ours (which cannot be overridden). */
    static Map<String, String> forSession(Map<String, String> configured, String name, String owner, String tenant) {
        Map<String, String> labels = new LinkedHashMap<>(configured);
        labels.put(SESSION, name);
        labels.putAll(ownedBy(owner));
        labels.put(TENANT, tenant);
        return labels;
    }

    static Map<String, String> annotations(String sessionId, String owner) {
        return Map.of(SESSION_ID_ANNOTATION, sessionId, OWNER_ANNOTATION, owner);
    }

    /** The labels every object of {@code owner} carries, for list selectors. */
    static Map<String, String> ownedBy(String owner) {
        return Map.of(PROVIDER, KubernetesSandboxProvider.NAME, OWNER, labelValue(owner));
    }

    /** Whether {@code meta} says the object belongs to {@code owner} (labels and annotation). */
    static boolean isOwnedBy(ObjectMeta meta, String owner) {
        if (meta == null || meta.getLabels() == null || meta.getAnnotations() == null) {
            return false;
        }
        return KubernetesSandboxProvider.NAME.equals(meta.getLabels().get(PROVIDER))
                && labelValue(owner).equals(meta.getLabels().get(OWNER))
                && owner.equals(meta.getAnnotations().get(OWNER_ANNOTATION));
    }

    /**
     * Whether {@code meta} says the object belongs to {@code owner}'s factory of {@code tenant}: an
     * object without a tenant label was made before names carried it, and belongs to the owner.
     */
    static boolean isOwnedBy(ObjectMeta meta, String owner, String tenant) {
        if (!isOwnedBy(meta, owner)) {
            return false;
        }
        String labelled = meta.getLabels().get(TENANT);
        return labelled == null || labelled.equals(tenant);
    }

    /** Whether {@code meta} is the object of session {@code sessionId} for {@code owner}'s factory of {@code tenant}. */
    static boolean isSession(ObjectMeta meta, String sessionId, String owner, String tenant) {
        return isOwnedBy(meta, owner, tenant) && sessionId.equals(meta.getAnnotations().get(SESSION_ID_ANNOTATION));
    }

    /** The raw session id an object of this provider carries, or null. */
    static String sessionIdOf(ObjectMeta meta) {
        return meta == null || meta.getAnnotations() == null ? null : meta.getAnnotations().get(SESSION_ID_ANNOTATION);
    }

    /** {@code raw} when it is a valid label value, else its sanitized prefix and a hash (owners may end in '.'). */
    static String labelValue(String raw) {
        if (LABEL_VALUE.matcher(raw).matches()) {
            return raw;
        }
        String sanitized = raw.replaceAll("[^A-Za-z0-9_.-]", "-");
        String head = sanitized.substring(0, Math.min(sanitized.length(), 63 - 1 - ResourceNames.HASH_HEX_DIGITS))
                .replaceAll("^[^A-Za-z0-9]+", "");
        return (head.isEmpty() ? "x" : head) + "-" + ResourceNames.shortHash(raw);
    }

    static boolean isValidLabelValue(String value) {
        return LABEL_VALUE.matcher(value).matches();
    }
}
