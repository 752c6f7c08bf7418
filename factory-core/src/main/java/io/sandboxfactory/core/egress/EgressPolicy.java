package io.sandboxfactory.core.egress;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A session's egress rules: its mode, the hosts it may reach and the hosts it may not. A deny rule
 * wins over every allow rule, so {@code factory egress ID --deny H} closes {@code H} even under a
 * wider {@code *.domain} allow.
 *
 * @param mode the session's mode; only {@link EgressMode#ALLOWLIST} goes through the proxy's rules
 * @param allow the patterns the session may reach
 * @param deny the patterns it may not, whatever {@code allow} says
 */
public record EgressPolicy(EgressMode mode, List<EgressRule> allow, List<EgressRule> deny) {

    public EgressPolicy {
        Objects.requireNonNull(mode, "mode");
        allow = List.copyOf(allow);
        deny = List.copyOf(deny);
    }

    /** Whether a connection to {@code host}:{@code port} may go ahead, and why. */
    public EgressDecision decide(String host, int port) {
        if (mode == EgressMode.NONE) {
            return new EgressDecision(false, "egress mode none");
        }
        if (mode == EgressMode.OPEN) {
            return new EgressDecision(true, "egress mode open");
        }
        for (EgressRule rule : deny) {
            if (rule.matches(host, port)) {
                return new EgressDecision(false, "deny " + rule);
            }
        }
        for (EgressRule rule : allow) {
            if (rule.matches(host, port)) {
                return new EgressDecision(true, "allow " + rule);
            }
        }
        return new EgressDecision(false, "no allow rule matches");
    }

    /** This policy with {@code rule} allowed: added to the allow-list and no longer denied as written. */
    public EgressPolicy allowing(EgressRule rule) {
        return new EgressPolicy(mode, with(allow, rule), without(deny, rule));
    }

    /** This policy with {@code rule} denied: added to the deny-list and no longer allowed as written. */
    public EgressPolicy denying(EgressRule rule) {
        return new EgressPolicy(mode, without(allow, rule), with(deny, rule));
    }

    private static List<EgressRule> with(List<EgressRule> rules, EgressRule rule) {
        List<EgressRule> copy = new ArrayList<>(without(rules, rule));
        copy.add(rule);
        return copy;
    }

    private static List<EgressRule> without(List<EgressRule> rules, EgressRule rule) {
        return rules.stream().filter(r -> !r.text().equals(rule.text())).toList();
    }
}
