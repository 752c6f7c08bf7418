package io.sandboxfactory.core.config;

/**
 * One effective configuration value and where it came from.
 *
 * @param key the key path, e.g. {@code store.leaseTtl} or {@code providers.docker.networkMode}
 * @param value the value as plain data (a string, number, boolean, list, map, or null when unset);
 *     a secret is {@link #MASKED}
 * @param source {@code default}, {@code file <path>}, {@code environment FACTORY_X}, or how an override was given
 */
public record ConfigValue(String key, Object value, String source) {

    /** What a secret's value is shown as. */
    public static final String MASKED = "****";
}
