package io.sandboxfactory.core.config;

import io.sandboxfactory.api.InvalidConfigValueException;


/**
 * The {@code journal:} section: how much of each session's command journal the store keeps.
 *
 * @param maxEntries the newest entries kept per session (default 1000; 0 records nothing)
 */
public record JournalConfig(Integer maxEntries) {

    /** The bound when none is configured. */
    public static final int DEFAULT_MAX_ENTRIES = 1000;
    /** Beyond this a journal stops being a bounded history. */
    public static final int LIMIT = 1_000_000;

    public JournalConfig {
        maxEntries = maxEntries == null ? DEFAULT_MAX_ENTRIES : maxEntries;
        if (maxEntries < 0 || maxEntries > LIMIT) {
            throw new InvalidConfigValueException("maxEntries", maxEntries, "it must be between 0 (no journal) and " + LIMIT);
        }
    }

    public static JournalConfig defaults() {
        return new JournalConfig(DEFAULT_MAX_ENTRIES);
    }
}
