package io.sandboxfactory.cli.session;

import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.egress.EgressPolicy;
import io.sandboxfactory.core.egress.EgressRule;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A session's egress rules as {@code factory egress}, {@code factory status} and the session_egress tool show them. */
public final class SessionEgress {

    private SessionEgress() {
    }

    /** {@code {mode, allow, deny}}: the configured mode, the allowed patterns (configured and the session's own) and the denied ones. */
    public static Map<String, Object> document(EgressPolicy policy) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("mode", policy.mode().configName());
        doc.put("allow", texts(policy.allow()));
        doc.put("deny", texts(policy.deny()));
        return doc;
    }

    /** {@link #document} of a session the store knows, with its id first. */
    public static Map<String, Object> describe(SandboxFactory factory, String sessionId) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("session", sessionId);
        doc.putAll(document(factory.egress(sessionId)));
        return doc;
    }

    /** One line: {@code allowlist; allow a.test, *.b.test; deny c.test}. */
    public static String line(EgressPolicy policy) {
        return policy.mode().configName() + "; allow " + join(policy.allow()) + "; deny " + join(policy.deny());
    }

    private static String join(List<EgressRule> rules) {
        return rules.isEmpty() ? "-" : String.join(", ", texts(rules));
    }

    private static List<String> texts(List<EgressRule> rules) {
        return rules.stream().map(EgressRule::text).toList();
    }
}
