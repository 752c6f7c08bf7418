package io.sandboxfactory.provider.kubernetes;

import io.fabric8.kubernetes.api.model.Toleration;
import io.sandboxfactory.api.InvalidConfigValueException;

import java.util.Objects;
import java.util.Set;

/**
 * One toleration of every sandbox pod (an entry of the section's {@code tolerations}), in Kubernetes'
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
        // Keys are relative to this toleration; the framework puts the section and tolerations[i] before them.
        InvalidConfigValueException.Collector problems = new InvalidConfigValueException.Collector();
        if (!OPERATORS.contains(operator)) {
            problems.reject("operator", operator, "it must be Equal or Exists");
        }
        if (!EFFECTS.contains(effect)) {
            problems.reject("effect", effect, "it must be NoSchedule, PreferNoSchedule, NoExecute or empty");
        }
        if ("Exists".equals(operator) && !value.isEmpty()) {
            problems.reject("value", value, "it must be empty with operator Exists");
        }
        if (key.isEmpty() && !"Exists".equals(operator)) {
            problems.reject("key", key, "an empty key needs operator Exists");
        }
        if (tolerationSeconds != null && !"NoExecute".equals(effect)) {
            problems.reject("tolerationSeconds", tolerationSeconds, "it only applies to effect NoExecute, not '" + effect + "'");
        }
        problems.throwIfAny();
    }

    Toleration toModel() {
        return new Toleration(effect.isEmpty() ? null : effect, key.isEmpty() ? null : key, operator, tolerationSeconds,
                value.isEmpty() ? null : value);
    }
}
