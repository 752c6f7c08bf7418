package com.example.tmpdir;

import io.sandboxfactory.api.InvalidConfigValueException;
import io.sandboxfactory.api.support.EnvironmentVariables;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code providers.tmpdir} section of the factory's config file. A record: the framework binds
 * the section to it with Jackson, and any key not listed here is an error. Absent keys arrive as
 * null, so the constructor supplies the defaults it can; a default that depends on the host (the
 * state directory) stays null here and is resolved in {@code open}, which sees the context. The
 * record must survive a Jackson round trip (the kit writes it as a config section and binds it
 * back), so it holds plain values only.
 *
 * <p>The constructor also checks the values, so a bad one fails while the config is read, before
 * anything is created, together with every other config error.
 *
 * @param root the directory holding one directory per session, or null for {@code <state dir>/tmpdir}
 * @param env variables every command sees, under the session's own and the per-call ones
 */
public record TmpdirConfig(String root, Map<String, String> env) {

    public TmpdirConfig {
        // Keys are named within the section: the framework reports "providers.tmpdir.root" and the file it came from.
        InvalidConfigValueException.Collector problems = new InvalidConfigValueException.Collector();
        if (root != null && !Path.of(root).isAbsolute()) {
            problems.reject("root", root, "it must be an absolute path");
        }
        EnvironmentVariables.check(env, "env", problems);
        problems.throwIfAny();
        env = Map.copyOf(Objects.requireNonNullElse(env, Map.of()));
    }
}
