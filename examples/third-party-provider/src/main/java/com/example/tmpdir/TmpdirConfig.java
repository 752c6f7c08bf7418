package com.example.tmpdir;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code providers.tmpdir} section of the factory's config file. A record: the framework binds
 * the section to it with Jackson, and any key not listed here is an error. Absent keys arrive as
 * null, so the constructor supplies the defaults.
 *
 * @param root the directory holding one directory per session (default: {@code <java.io.tmpdir>/tmpdir-sandboxes})
 * @param env variables every command sees, under the session's own and the per-call ones
 */
public record TmpdirConfig(String root, Map<String, String> env) {

    public TmpdirConfig {
        root = Objects.requireNonNullElse(root, Path.of(System.getProperty("java.io.tmpdir"), "tmpdir-sandboxes").toString());
        env = Map.copyOf(Objects.requireNonNullElse(env, Map.of()));
    }
}
