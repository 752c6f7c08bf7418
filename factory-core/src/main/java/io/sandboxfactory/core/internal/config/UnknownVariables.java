package io.sandboxfactory.core.internal.config;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Finds the {@code FACTORY_*} variables that set nothing: a mistyped {@code FACTORY_PROVIDR=docker}
 * must fail rather than leave the default in force unnoticed. A variable is known when it is a
 * config key's variable, one the {@code factory} command reads itself ({@link #READ_BY_THE_FACTORY}),
 * or one the config names as a variable to read ({@code store.passwordEnv}, a provider's {@code
 * passEnv}: any key ending in {@code Env}).
 */
final class UnknownVariables {

    /** Variables the {@code factory} command and its launcher script read that are not config keys. */
    static final Set<String> READ_BY_THE_FACTORY = Set.of("FACTORY_DAEMON", "FACTORY_DAEMON_IDLE", "FACTORY_CDS", "FACTORY_PLUGINS");

    private final Set<String> known = new TreeSet<>();

    /** @param keyVariables the variable of every config key (the provider ones included) */
    UnknownVariables(Collection<String> keyVariables) {
        known.addAll(keyVariables);
        known.addAll(READ_BY_THE_FACTORY);
    }

    /** Records one problem for each of {@code present} that is neither known nor in {@code named} (the variables the config names). */
    void check(Collection<String> present, Set<String> named, ConfigProblems problems) {
        for (String variable : new TreeSet<>(present)) {
            if (variable.startsWith("FACTORY_") && !known.contains(variable) && !named.contains(variable)) {
                problems.add("Unknown configuration key from environment variable " + variable + "; " + hint(variable));
            }
        }
    }

    private String hint(String variable) {
        Optional<String> closest = known.stream().filter(k -> !READ_BY_THE_FACTORY.contains(k))
                .min(Comparator.comparingInt((String k) -> distance(variable, k)).thenComparing(Comparator.naturalOrder()))
                .filter(k -> distance(variable, k) <= Math.max(2, variable.length() / 6));
        if (closest.isPresent()) {
            return "did you mean " + closest.get() + "?";
        }
        int section = variable.indexOf('_', "FACTORY_".length());
        List<String> siblings = section < 0 ? List.of()
                : known.stream().filter(k -> k.startsWith(variable.substring(0, section + 1))).toList();
        if (!siblings.isEmpty()) {
            return "known variables there: " + siblings + ".";
        }
        return "a key's variable is FACTORY_ and the key in upper case with _ between words (timeouts.network:"
                + " FACTORY_TIMEOUTS_NETWORK), and 'factory config' lists the keys.";
    }

    /** The variable names a config tree gives as values of keys ending in {@code Env} (a name, or a list of names). */
    static Set<String> namedIn(JsonNode tree) {
        Set<String> names = new TreeSet<>();
        collect(tree, names);
        return names;
    }

    private static void collect(JsonNode node, Set<String> names) {
        if (node == null) {
            return;
        }
        if (node.isObject()) {
            node.fields().forEachRemaining(field -> {
                if (field.getKey().endsWith("Env")) {
                    if (field.getValue().isTextual()) {
                        names.add(field.getValue().asText());
                    }
                    field.getValue().forEach(element -> names.add(element.asText()));
                } else {
                    collect(field.getValue(), names);
                }
            });
        } else if (node.isArray()) {
            node.forEach(element -> collect(element, names));
        }
    }

    /** Levenshtein distance: the fewest single-character edits between the two. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
