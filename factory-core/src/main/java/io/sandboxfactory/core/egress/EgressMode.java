package io.sandboxfactory.core.egress;

import io.sandboxfactory.api.InvalidConfigValueException;

import java.util.Arrays;
import java.util.Locale;

/** What network a session's sandboxes may reach ({@code egress.mode}). */
public enum EgressMode {
    /** No network at all: the factory adds no route (the provider's own isolation must give none). */
    NONE,
    /** Only the hosts the allow-list names, through the factory's {@link EgressProxy}; every other route is refused. */
    ALLOWLIST,
    /** The provider's own network setting decides, as before egress rules existed (the default). */
    OPEN;

    /** The name as config and the CLI write it: {@code none}, {@code allowlist}, {@code open}. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The mode {@code text} names, or {@code INVALID_CONFIG} naming it under {@code key}. */
    public static EgressMode parse(String key, String text) {
        return Arrays.stream(values()).filter(m -> m.configName().equals(text)).findFirst()
                .orElseThrow(() -> new InvalidConfigValueException(key, text, "it must be one of none, allowlist, open"));
    }
}
