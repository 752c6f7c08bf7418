package io.sandboxfactory.core.internal.config;

import io.sandboxfactory.api.error.ErrorKind;
import io.sandboxfactory.core.FactoryConfigurationException;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import io.sandboxfactory.core.config.InvalidConfigException;

/**
 * Collects configuration errors so that one run reports all of them (each part of the config is
 * checked on its own) instead of the first: {@link #check} runs a part, keeps its error and returns
 * a fallback so the rest can still be checked; {@link #throwIfAny} reports them together.
 */
final class ConfigProblems {

    private final List<String> problems = new ArrayList<>();
    private final List<FactoryConfigurationException> failures = new ArrayList<>();

    /** {@code part}'s value, or {@code fallback} after recording its error (a bad-input one; others pass through). */
    <T> T check(Supplier<T> part, Supplier<T> fallback) {
        try {
            return part.get();
        } catch (InvalidConfigException e) {
            problems.addAll(e.problems());
            failures.add(e);
        } catch (FactoryConfigurationException e) {
            if (e.kind() != ErrorKind.BAD_INPUT) {
                throw e;
            }
            problems.add(e.getMessage());
            failures.add(e);
        }
        return fallback.get();
    }

    void run(Runnable part) {
        check(() -> {
            part.run();
            return null;
        }, () -> null);
    }

    /** Records an error found without an exception. */
    void add(String problem) {
        problems.add(problem);
    }

    boolean isEmpty() {
        return problems.isEmpty();
    }

    /**
     * Throws what was recorded: a single failure as it was (keeping its code, e.g. {@code
     * UNKNOWN_PROVIDER}), several as one {@link InvalidConfigException} listing them all.
     */
    void throwIfAny() {
        if (problems.isEmpty()) {
            return;
        }
        if (failures.size() == 1 && problems.size() == 1) {
            throw failures.get(0);
        }
        throw new InvalidConfigException(problems, failures.isEmpty() ? null : failures.get(0));
    }
}
