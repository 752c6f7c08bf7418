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

    /** Validates the config with a clear sentence; opening touches nothing on disk yet. */
    @Override
    public FactorySandbox open(TmpdirConfig config, ProviderContext context) {
        TmpdirConfig effective = config == null ? new TmpdirConfig(null, null) : config;
        // The default lives under the framework's state directory, which only the context knows.
        Path root = effective.root() == null ? context.stateDirectory().resolve("tmpdir") : Path.of(effective.root());
        if (!root.isAbsolute()) {
            throw new IllegalArgumentException("providers.tmpdir.root '" + effective.root() + "' is invalid; it must be an absolute path.");
        }
        return new TmpdirFactorySandbox(root.normalize(), baseEnvironment(context.environment(), effective.env()));
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
