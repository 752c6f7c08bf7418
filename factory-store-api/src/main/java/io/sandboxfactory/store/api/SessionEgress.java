package io.sandboxfactory.store.api;

import java.util.List;

/**
 * The egress rules a session holds in addition to the factory's configured allow-list: those its
 * opens asked for ({@code --egress-allow}) and those changed live ({@code factory egress}). Host
 * patterns as written ({@code api.example.com}, {@code *.example.com}, {@code host:443}); the
 * factory validates them before they get here.
 *
 * @param allow the patterns the session may reach
 * @param deny the patterns it may not, whatever is allowed
 *
 * @since 0.1.0
 */
public record SessionEgress(List<String> allow, List<String> deny) {

    /** No rules of the session's own. */
    public static final SessionEgress NONE = new SessionEgress(List.of(), List.of());

    public SessionEgress {
        allow = List.copyOf(allow);
        deny = List.copyOf(deny);
    }
}
