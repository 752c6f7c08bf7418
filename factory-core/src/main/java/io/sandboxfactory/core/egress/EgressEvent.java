package io.sandboxfactory.core.egress;

import java.time.Instant;
import java.util.Objects;

/**
 * One connection a session's sandbox asked the proxy for.
 *
 * @param sessionId the session whose capability the request carried
 * @param at when the proxy decided
 * @param method {@code CONNECT}, or the method of a plain HTTP request
 * @param host the host asked for
 * @param port the port asked for
 * @param allowed whether it went ahead
 * @param rule the rule that decided, or why it was refused ({@code SNI other.example does not match})
 */
public record EgressEvent(String sessionId, Instant at, String method, String host, int port, boolean allowed, String rule) {

    public EgressEvent {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(rule, "rule");
    }

    /** The line the journal keeps: {@code denied CONNECT evil.example:443 (no allow rule matches)}. */
    public String describe() {
        return (allowed ? "allowed " : "denied ") + method + " " + host + ":" + port + " (" + rule + ")";
    }
}
