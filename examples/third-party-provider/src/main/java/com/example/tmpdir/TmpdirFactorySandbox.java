package com.example.tmpdir;

import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxCapability;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The opened provider. {@link #create} is cheap and side-effect free: it checks the session id and
 * computes a path; the directory appears only when the sandbox starts. The same session id always
 * maps to the same directory, which makes get-or-create id-keyed, across processes too.
 */
final class TmpdirFactorySandbox implements FactorySandbox {

    private static final Pattern SESSION_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

    private final Path root;
    private final Map<String, String> baseEnv;

    TmpdirFactorySandbox(Path root, Map<String, String> configuredEnv) {
        this.root = root;
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
        env.put("LANG", "C.UTF-8");
        env.putAll(configuredEnv);
        this.baseEnv = Map.copyOf(env);
    }

    @Override
    public String provider() {
        return "tmpdir";
    }

    @Override
    public MastraSandbox<?> create(FactorySandboxContext ctx) {
        if (!SESSION_ID.matcher(ctx.sessionId()).matches()) {
            throw new IllegalArgumentException("Session id '" + ctx.sessionId()
                    + "' is invalid for the tmpdir provider; it must match [A-Za-z0-9][A-Za-z0-9._-]{0,127}.");
        }
        return new TmpdirSandbox(ctx.sessionId(), root.resolve(ctx.sessionId()), baseEnv);
    }

    /** Directories keep their files when stopped, and any process finds them again by session id. */
    @Override
    public Set<SandboxCapability> capabilities() {
        return EnumSet.of(SandboxCapability.EXEC, SandboxCapability.FILES_SURVIVE_STOP, SandboxCapability.RECONNECT_ACROSS_PROCESSES);
    }
}
