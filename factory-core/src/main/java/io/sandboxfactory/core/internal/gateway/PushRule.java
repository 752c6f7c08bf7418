package io.sandboxfactory.core.internal.gateway;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Which refs a session may update through the gateway: its own branch, and every branch under
 * {@code refs/heads/<namespace>/} when a namespace is configured ({@code repository.pushNamespace}).
 *
 * @param branch the session branch
 * @param namespace the extra branch namespace; empty for none
 */
record PushRule(String branch, Optional<String> namespace) {

    PushRule {
        Objects.requireNonNull(branch, "branch");
        Objects.requireNonNull(namespace, "namespace");
    }

    /** What the gateway's pre-receive hook reads. */
    Map<String, String> hookEnv() {
        return Map.of("SF_PUSH_BRANCH", branch, "SF_PUSH_NAMESPACE", namespace.orElse(""));
    }
}
