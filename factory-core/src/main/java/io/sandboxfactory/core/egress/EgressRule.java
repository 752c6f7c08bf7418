package io.sandboxfactory.core.egress;

import io.sandboxfactory.api.InvalidConfigValueException;

import java.util.Locale;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * One host pattern of an egress list: {@code host}, {@code *.domain} (any name below the domain,
 * not the domain itself) or either with {@code :port}. Without a port it matches every port. Names
 * compare case-insensitively and without a trailing dot.
 *
 * @param text the pattern as written (lower-cased), which is how rules are shown and removed
 * @param wildcard whether the pattern is {@code *.domain}
 * @param host the host, or for a wildcard the domain (without {@code *.})
 * @param port the one port it allows, when given
 */
public record EgressRule(String text, boolean wildcard, String host, OptionalInt port) {

    /** What a pattern must be, as the clause of an error. */
    public static final String RULE = "it must be a host name or IPv4 address, '*.' followed by a domain, either with an optional"
            + " ':port' (1-65535); no scheme, path, space or other '*'";
    private static final Pattern LABEL = Pattern.compile("[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?");

    /** The rule {@code pattern} writes, or {@code INVALID_CONFIG} naming it under {@code key}. */
    public static EgressRule parse(String key, String pattern) {
        if (pattern == null) {
            throw new InvalidConfigValueException(key, null, "a host pattern is required; " + RULE);
        }
        String text = pattern.toLowerCase(Locale.ROOT);
        OptionalInt port = OptionalInt.empty();
        String name = text;
        int colon = text.lastIndexOf(':');
        if (colon >= 0) {
            port = port(key, pattern, text.substring(colon + 1));
            name = text.substring(0, colon);
        }
        boolean wildcard = name.startsWith("*.");
        String host = wildcard ? name.substring(2) : name;
        if (!validHost(host)) {
            throw new InvalidConfigValueException(key, pattern, RULE);
        }
        return new EgressRule(text, wildcard, host, port);
    }

    /** Whether this rule covers a connection to {@code host} (any case, trailing dot or not) on {@code port}. */
    public boolean matches(String host, int port) {
        if (this.port.isPresent() && this.port.getAsInt() != port) {
            return false;
        }
        String name = normalize(host);
        return wildcard ? name.endsWith("." + this.host) : name.equals(this.host);
    }

    /** A host as rules compare it: lower case, no trailing dot. */
    static String normalize(String host) {
        String name = host.toLowerCase(Locale.ROOT);
        return name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
    }

    @Override
    public String toString() {
        return text;
    }

    private static OptionalInt port(String key, String pattern, String digits) {
        if (digits.isEmpty() || digits.length() > 5 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new InvalidConfigValueException(key, pattern, RULE);
        }
        int port = Integer.parseInt(digits);
        if (port < 1 || port > 65535) {
            throw new InvalidConfigValueException(key, pattern, RULE);
        }
        return OptionalInt.of(port);
    }

    private static boolean validHost(String host) {
        if (host.isEmpty() || host.length() > 253) {
            return false;
        }
        for (String label : host.split("\\.", -1)) {
            if (!LABEL.matcher(label).matches()) {
                return false;
            }
        }
        return true;
    }
}
