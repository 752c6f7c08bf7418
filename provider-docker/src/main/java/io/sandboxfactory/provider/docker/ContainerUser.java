package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.InvalidConfigValueException;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The numeric user and group a container's commands run as, parsed from {@code uid} or {@code
 * uid:gid}. Numbers only: a name would need the image's {@code /etc/passwd}, and the provider
 * must know the ids to make the working directory and copied files belong to them on any image.
 *
 * @param uid the user id
 * @param gid the group id; a lone uid gives the same number (Docker would pick group 0, root's)
 */
record ContainerUser(int uid, int gid) {

    private static final Pattern SHAPE = Pattern.compile("(\\d{1,10})(?::(\\d{1,10}))?");

    ContainerUser {
        if (uid < 0 || gid < 0) {
            throw new IllegalArgumentException("uid and gid must not be negative");
        }
    }

    /**
     * Parses {@code text}; a bad one is rejected naming {@code key}, the value and the rule.
     *
     * @param key the config key holding the value, within the provider's section
     */
    static ContainerUser parse(String text, String key) {
        Matcher m = text == null ? null : SHAPE.matcher(text);
        if (m == null || !m.matches() || Long.parseLong(m.group(1)) > Integer.MAX_VALUE
                || (m.group(2) != null && Long.parseLong(m.group(2)) > Integer.MAX_VALUE)) {
            throw new InvalidConfigValueException(key, text, "it must be a numeric uid or uid:gid up to " + Integer.MAX_VALUE
                    + ", such as 1000:1000 (names are not looked up)");
        }
        int uid = Integer.parseInt(m.group(1));
        return new ContainerUser(uid, m.group(2) == null ? uid : Integer.parseInt(m.group(2)));
    }

    /** Whether this is root, which the engine's other limits still hold but file permissions do not. */
    boolean isRoot() {
        return uid == 0;
    }

    /** Docker's {@code User} spelling. */
    @Override
    public String toString() {
        return uid + ":" + gid;
    }
}
