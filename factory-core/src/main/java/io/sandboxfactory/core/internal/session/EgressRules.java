package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.config.EgressConfig;
import io.sandboxfactory.core.egress.EgressMode;
import io.sandboxfactory.core.egress.EgressPolicy;
import io.sandboxfactory.core.egress.EgressRule;
import io.sandboxfactory.store.api.SessionEgress;
import io.sandboxfactory.store.api.SessionStore;
import jakarta.inject.Inject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Objects;

/**
 * A session's egress policy: the configured {@code egress} section plus the rules the session keeps
 * in the store (its opens' {@code --egress-allow} and live changes). Read from the store on every
 * use, so a change made by any process applies to the next connection of every other.
 */
public final class EgressRules {

    private static final Logger LOG = LoggerFactory.getLogger(EgressRules.class);

    private final EgressConfig config;
    private final SessionStore store;

    @Inject
    public EgressRules(EgressConfig config, SessionStore store) {
        this.config = Objects.requireNonNull(config, "config");
        this.store = Objects.requireNonNull(store, "store");
    }

    /** The configured mode. */
    public EgressMode mode() {
        return config.egressMode();
    }

    /** The session's policy now. */
    public EgressPolicy policy(String sessionId) {
        SessionEgress own = store.egress(sessionId);
        return config.policy(own.allow(), own.deny());
    }

    /** What the proxy enforces for the session: its policy, or nothing allowed when the store cannot say (fail closed). */
    EgressPolicy enforced(String sessionId) {
        try {
            return policy(sessionId);
        } catch (RuntimeException e) {
            LOG.warn("The egress rules of session '{}' could not be read, so its connection is refused: {}", sessionId, e.getMessage());
            return new EgressPolicy(EgressMode.NONE, List.of(), List.of());
        }
    }

    /**
     * Allows {@code allow} and denies {@code deny} (each a host pattern, validated first: nothing
     * changes for a bad one) for the session from its next connection on; kept with the session.
     */
    public EgressPolicy change(String sessionId, List<String> allow, List<String> deny) {
        List<EgressRule> allowed = allow.stream().map(p -> EgressRule.parse("--allow", p)).toList();
        List<EgressRule> denied = deny.stream().map(p -> EgressRule.parse("--deny", p)).toList();
        if (store.find(sessionId).isEmpty()) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Session '" + sessionId
                    + "' is not known to the session store, so it has no egress rules to change; open it first.");
        }
        SessionEgress own = store.egress(sessionId);
        EgressPolicy rules = new EgressPolicy(mode(), parse(own.allow()), parse(own.deny()));
        for (EgressRule rule : allowed) {
            rules = rules.allowing(rule);
        }
        for (EgressRule rule : denied) {
            rules = rules.denying(rule);
        }
        store.recordEgress(sessionId, new SessionEgress(texts(rules.allow()), texts(rules.deny())));
        return policy(sessionId);
    }

    /** Adds an open's {@code --egress-allow} patterns to those the session keeps (already validated by the spec). */
    void remember(String sessionId, List<String> allow) {
        if (!allow.isEmpty()) {
            change(sessionId, allow, List.of());
        }
    }

    private static List<EgressRule> parse(List<String> patterns) {
        return patterns.stream().map(p -> EgressRule.parse("stored rule", p)).toList();
    }

    private static List<String> texts(List<EgressRule> rules) {
        return rules.stream().map(EgressRule::text).toList();
    }
}
