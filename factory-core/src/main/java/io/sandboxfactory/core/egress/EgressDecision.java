package io.sandboxfactory.core.egress;

import java.util.Objects;

/**
 * Whether a session may reach a host and port, and the rule that decided it.
 *
 * @param allowed whether the connection may go ahead
 * @param rule the rule that decided, as a phrase: {@code allow *.example.com}, {@code deny api.example.com},
 *     {@code no allow rule matches}, {@code egress mode none}
 */
public record EgressDecision(boolean allowed, String rule) {

    public EgressDecision {
        Objects.requireNonNull(rule, "rule");
    }
}
