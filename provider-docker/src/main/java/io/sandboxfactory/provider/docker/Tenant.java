package io.sandboxfactory.provider.docker;

import io.sandboxfactory.provider.support.SessionNames;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Whose sandboxes these are on a shared engine: the owner and the factory's state directory. Two
 * factories of different owners, or of one owner with two state directories, are different
 * tenants: their container names and template images differ ({@link #key}), and each lists and
 * removes only what carries its own labels, so both can open session {@code fix-42} at once.
 *
 * @param owner the owner name ({@code io.sandboxfactory.owner} label)
 * @param key the first {@value #KEY_HEX_DIGITS} hex digits of the SHA-256 of the owner, a NUL and
 *     the state directory's absolute path ({@code io.sandboxfactory.tenant} label, and part of every name)
 */
record Tenant(String owner, String key) {

    static final int KEY_HEX_DIGITS = 8;

    Tenant {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(key, "key");
    }

    /** The tenant of {@code owner} with state directory {@code stateDirectory}. */
    static Tenant of(String owner, Path stateDirectory) {
        String where = stateDirectory.toAbsolutePath().normalize().toString();
        return new Tenant(owner, SessionNames.shortHash(owner + "\0" + where).substring(0, KEY_HEX_DIGITS));
    }
}
