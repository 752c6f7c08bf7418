package io.sandboxfactory.core.internal.setup;

import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.internal.config.InputText;
import io.sandboxfactory.core.session.Redaction;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The values of a session's {@code setupSecrets}: host variables the factory read at open, given to
 * the setup commands' environment only (never the sandbox's env overlay, argv or files) and masked
 * wherever the setup's output leaves. {@link #toString()} shows the names only.
 *
 * @param values by variable name, in the order listed
 * @param missing listed variables that were unset on the host: a new session's open fails on them
 *     before anything is created; an existing session's only when its setup has to run again
 */
public record SetupSecrets(Map<String, String> values, List<String> missing) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final SetupSecrets NONE = new SetupSecrets(Map.of(), List.of());

    public SetupSecrets {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        missing = List.copyOf(missing);
    }

    /** No secrets. */
    public static SetupSecrets none() {
        return NONE;
    }

    /**
     * {@code names}, each checked: a name that is no environment variable's fails as {@code
     * INVALID_CONFIG} naming the value (a name is what the config and the caller give).
     */
    public static List<String> requireValidNames(List<String> names) {
        List<String> valid = new ArrayList<>();
        for (String name : Objects.requireNonNull(names, "names")) {
            if (name == null || !NAME.matcher(name).matches()) {
                throw new InvalidInputException(StandardErrorCode.INVALID_CONFIG, "Setup secret '" + InputText.shown(name)
                        + "' is invalid; it must name an environment variable ([A-Za-z_][A-Za-z0-9_]*).");
            }
            if (!valid.contains(name)) {
                valid.add(name);
            }
        }
        return List.copyOf(valid);
    }

    /** Reads {@code names} from the host's {@code environment}; see {@link #requireComplete()} for unset ones. */
    public static SetupSecrets read(List<String> names, Map<String, String> environment) {
        Map<String, String> values = new LinkedHashMap<>();
        List<String> missing = new ArrayList<>();
        for (String name : requireValidNames(names)) {
            String value = environment.get(name);
            if (value == null) {
                missing.add(name);
            } else {
                values.put(name, value);
            }
        }
        return values.isEmpty() && missing.isEmpty() ? NONE : new SetupSecrets(values, missing);
    }

    /** Fails with one sentence naming the first listed variable that is unset on the host (never a value). */
    public SetupSecrets requireComplete() {
        if (!missing.isEmpty()) {
            throw new InvalidInputException(StandardErrorCode.INVALID_CONFIG, "Setup secret " + missing.get(0)
                    + " is not set in the factory's environment; set it, or remove it from setupSecrets.");
        }
        return this;
    }

    /** Masks these values (and token shapes). */
    public Redaction redaction() {
        return Redaction.of(values.values());
    }

    /** Names only: the values never show. */
    @Override
    public String toString() {
        return "SetupSecrets" + values.keySet() + (missing.isEmpty() ? "" : ", unset " + missing);
    }
}
