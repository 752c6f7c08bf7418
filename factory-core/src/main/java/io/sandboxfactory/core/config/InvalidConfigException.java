package io.sandboxfactory.core.config;

import io.sandboxfactory.api.ErrorCode;
import io.sandboxfactory.api.InvalidConfigValueException;
import io.sandboxfactory.core.FactoryConfigurationException;

import java.util.List;

/**
 * The configuration is invalid: {@link #problems()} holds every error found (file, environment,
 * builder), each one sentence naming the key and where its value came from. Code {@code INVALID_CONFIG}.
 */
public final class InvalidConfigException extends FactoryConfigurationException {
    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    InvalidConfigException(List<String> problems, Throwable cause) {
        super(ErrorCode.INVALID_CONFIG, message(problems), cause);
        this.problems = List.copyOf(problems);
    }

    /**
     * The values provider {@code name} rejected (in its {@code open}), each named {@code
     * providers.<name>.<key>} with where {@code origins} says it came from.
     */
    public static InvalidConfigException rejectedBy(String name, InvalidConfigValueException rejected, ConfigOrigins origins) {
        return new InvalidConfigException(rejected.problems().stream()
                .map(p -> ConfigErrors.rejected(ConfigErrors.join("providers." + name, p.key()), p, origins::where)).toList(), rejected);
    }

    /** Every error, in the order found. */
    public List<String> problems() {
        return problems;
    }

    private static String message(List<String> problems) {
        if (problems.size() == 1) {
            return problems.get(0);
        }
        StringBuilder text = new StringBuilder("The configuration has " + problems.size() + " errors:");
        for (String problem : problems) {
            text.append("\n  - ").append(problem);
        }
        return text.toString();
    }
}
