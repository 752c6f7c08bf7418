package io.sandboxfactory.provider.kubernetes;

import io.fabric8.kubernetes.api.model.Toleration;
import io.sandboxfactory.api.ErrorCode;
import io.sandboxfactory.api.InvalidInputException;

import java.util.Objects;
import java.util.Set;

/**
 * One toleration of every sandbox pod ({@code providers.kubernetes.tolerations[]}), in Kubernetes'
 * own spelling.
 *
 * @param key the taint key; empty with {@code Exists} tolerates every taint
 * @param operator {@code Equal} (default) or {@code Exists}
 * @param value the taint value, for {@code Equal}
 * @param effect {@code NoSchedule}, {@code PreferNoSchedule}, {@code NoExecute}, or empty for all
 * @param tolerationSeconds how long a {@code NoExecute} taint is tolerated; forever when absent
 */
public record KubernetesToleration(String key, String operator, String value, String effect, Long tolerationSeconds) {

    private static final Set<String> OPERATORS = Set.of("Equal", "Exists");
    private static final Set<String> EFFECTS = Set.of("", "NoSchedule", "PreferNoSchedule", "NoExecute");

    public KubernetesToleration {
        key = Objects.requireNonNullElse(key, "");
        operator = Objects.requireNonNullElse(operator, "Equal");
        value = Objects.requireNonNullElse(value, "");
        effect = Objects.requireNonNullElse(effect, "");
        String field = "providers.kubernetes.tolerations";
        if (!OPERATORS.contains(operator)) {
            throw new InvalidInputException(ErrorCode.INVALID_CONFIG, field + " operator '" + operator + "' is invalid; it must be Equal or Exists.");
        }
        if (!EFFECTS.contains(effect)) {
            throw new InvalidInputException(ErrorCode.INVALID_CONFIG, field + " effect '" + effect + "' is invalid; it must be NoSchedule,"
                    + " PreferNoSchedule, NoExecute or empty.");
        }
        if ("Exists".equals(operator) && !value.isEmpty()) {
            throw new InvalidInputException(ErrorCode.INVALID_CONFIG, field + " value '" + value + "' is invalid with operator Exists; leave it empty.");
        }
        if (key.isEmpty() && !"Exists".equals(operator)) {
            throw new InvalidInputException(ErrorCode.INVALID_CONFIG, field + " key '' is invalid with operator Equal; an empty key needs Exists.");
        }
        if (tolerationSeconds != null && !"NoExecute".equals(effect)) {
            throw new InvalidInputException(ErrorCode.INVALID_CONFIG, field + " tolerationSeconds " + tolerationSeconds
                    + " is invalid with effect '" + effect + "'; it only applies to NoExecute.");
        }
    }

    Toleration toModel() {
        return new Toleration(effect.isEmpty() ? null : effect, key.isEmpty() ? null : key, operator, tolerationSeconds,
                value.isEmpty() ? null : value);
    }
}
