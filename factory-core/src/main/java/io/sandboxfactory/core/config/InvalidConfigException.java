package io.sandboxfactory.core.config;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.FactoryConfigurationException;

import java.util.List;

/**
 * The configuration is invalid: {@link #problems()} holds every error found (file, environment,
 * builder), each one sentence naming the key and where its value came from. Code {@code INVALID_CONFIG}.
 */
public final class InvalidConfigException extends FactoryConfigurationException {
    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    /** Made by the framework as it reads and checks a configuration; {@code problems} are whole sentences. */
    public InvalidConfigException(List<String> problems, Throwable cause) {
        super(StandardErrorCode.INVALID_CONFIG, message(problems), cause);
        this.problems = List.copyOf(problems);
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
