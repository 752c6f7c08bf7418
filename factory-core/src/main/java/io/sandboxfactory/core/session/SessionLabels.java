package io.sandboxfactory.core.session;

import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.internal.config.InputText;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The labels a session carries ({@code team=infra}, {@code work-item=1234}), by which hosts find
 * and retire sessions in bulk (design §5.13). Keys are 1–63 characters of {@code [A-Za-z0-9._/-]}
 * starting with a letter or digit; values are 0–63 characters of {@code [A-Za-z0-9._-]}, as
 * Kubernetes and Docker accept them, so a label can travel to a provider's own resources unchanged.
 */
public final class SessionLabels {

    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._/-]{0,62}");
    private static final Pattern VALUE = Pattern.compile("[A-Za-z0-9._-]{0,63}");

    private SessionLabels() {
    }

    /** A sorted, unmodifiable copy of {@code labels}, each checked; fails naming the first bad key or value. */
    public static Map<String, String> requireValid(Map<String, String> labels) {
        Map<String, String> copy = new TreeMap<>();
        labels.forEach((key, value) -> {
            if (key == null || !KEY.matcher(key).matches()) {
                throw new InvalidInputException(StandardErrorCode.INVALID_LABEL, "Label key '" + InputText.shown(key) + "' is invalid; it must be 1-63 characters"
                        + " of letters, digits, '.', '_', '-' or '/', starting with a letter or digit.");
            }
            if (value == null || !VALUE.matcher(value).matches()) {
                throw new InvalidInputException(StandardErrorCode.INVALID_LABEL, "Label value '" + InputText.shown(value) + "' of key '" + key + "' is invalid;"
                        + " it must be at most 63 characters of letters, digits, '.', '_' or '-'.");
            }
            copy.put(key, value);
        });
        return Collections.unmodifiableMap(copy);
    }

    /** Reads {@code key=value} (as {@code --label} takes it); fails naming the text when it has no {@code =}. */
    public static Map.Entry<String, String> parse(String text) {
        int eq = text == null ? -1 : text.indexOf('=');
        if (eq < 0) {
            throw new InvalidInputException(StandardErrorCode.INVALID_LABEL, "Label '" + InputText.shown(text) + "' is invalid; write it as key=value.");
        }
        String key = text.substring(0, eq);
        String value = text.substring(eq + 1);
        requireValid(Map.of(key, value));
        return Map.entry(key, value);
    }
}
