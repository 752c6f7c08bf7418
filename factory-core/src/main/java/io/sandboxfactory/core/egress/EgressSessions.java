package io.sandboxfactory.core.egress;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The sessions the proxy serves, each by its own capability: a random secret the session's
 * sandboxes send as the proxy URL's user name. A capability names one session and nothing else, and
 * stops working when the session is {@link #revoke revoked}. The policy is asked for on every
 * connection, so a live change applies to the next one.
 */
public final class EgressSessions {

    private final SecureRandom random = new SecureRandom();
    private final Map<String, Registration> byCapability = new ConcurrentHashMap<>();
    private final Map<String, String> capabilityBySession = new ConcurrentHashMap<>();

    /** A session the proxy serves, and how to read its current policy. */
    record Registration(String sessionId, Supplier<EgressPolicy> policy) {
    }

    /** The capability of {@code sessionId}, registered now (or its existing one, now reading {@code policy}). */
    public String register(String sessionId, Supplier<EgressPolicy> policy) {
        Objects.requireNonNull(policy, "policy");
        return capabilityBySession.compute(sessionId, (id, existing) -> {
            String capability = existing != null ? existing : newCapability();
            byCapability.put(capability, new Registration(id, policy));
            return capability;
        });
    }

    /** Ends {@code sessionId}'s capability: the proxy refuses it from now on. */
    public void revoke(String sessionId) {
        capabilityBySession.computeIfPresent(sessionId, (id, capability) -> {
            byCapability.remove(capability);
            return null;
        });
    }

    /** Whether {@code sessionId} holds a capability now. */
    public boolean registered(String sessionId) {
        return capabilityBySession.containsKey(sessionId);
    }

    Optional<Registration> find(String capability) {
        return Optional.ofNullable(byCapability.get(capability));
    }

    private String newCapability() {
        byte[] bytes = new byte[24];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
