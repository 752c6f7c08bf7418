package com.example.tmpdir;

import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.ProviderContext;
import io.sandboxfactory.api.SandboxProvider;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The entry point ServiceLoader finds (see META-INF/services/io.sandboxfactory.api.SandboxProvider).
 * It needs a public no-argument constructor and does no I/O until {@link #open}.
 */
public final class TmpdirSandboxProvider implements SandboxProvider<TmpdirConfig> {

    @Override
    public String name() {
        return "tmpdir";
    }

    @Override
    public Class<TmpdirConfig> configType() {
        return TmpdirConfig.class;
    }

    @Override
    public String description() {
        return "Every session in its own directory under a temporary root (an example third-party provider).";
    }

    /** Opening touches nothing on disk yet; the record checked its values when the config was read. */
    @Override
    public FactorySandbox open(TmpdirConfig config, ProviderContext context) {
        // Never null: the framework binds an absent section from {}, so the record's defaults apply.
        // The default root lives under the framework's state directory, which only the context knows.
        Path root = config.root() == null ? context.stateDirectory().resolve("tmpdir") : Path.of(config.root());
        return new TmpdirFactorySandbox(root.normalize(), baseEnvironment(context.environment(), config.env()));
    }

    /**
     * What every command starts from: the host's PATH (from the context, not System.getenv(): a
     * host may build factories for callers with different environments), a UTF-8 locale, then the
     * configured variables.
     */
    static Map<String, String> baseEnvironment(Map<String, String> host, Map<String, String> configured) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", host.getOrDefault("PATH", "/usr/local/bin:/usr/bin:/bin"));
        env.put("LANG", "C.UTF-8");
        env.putAll(configured);
        return Map.copyOf(env);
    }
}
