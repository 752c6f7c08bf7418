package com.example.tmpdir;

import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxCapability;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The opened provider. {@link #create} is cheap and side-effect free: it computes a path; the
 * directory appears only when the sandbox starts. The same session id always maps to the same
 * directory, which makes get-or-create id-keyed, across processes too.
 */
final class TmpdirFactorySandbox implements FactorySandbox {

    private final Path root;
    private final Map<String, String> baseEnv;

    TmpdirFactorySandbox(Path root, Map<String, String> baseEnv) {
        this.root = root;
        this.baseEnv = baseEnv;
    }

    @Override
    public MastraSandbox<?> create(FactorySandboxContext ctx) {
        // The framework checked the id before (SessionIds): one file name, no '/', no leading '.', so it resolves under root.
        return new TmpdirSandbox(ctx.sessionId(), root.resolve(ctx.sessionId()), baseEnv);
    }

    /** Directories keep their files when stopped, and any process finds them again by session id. */
    @Override
    public Set<SandboxCapability> capabilities() {
        return EnumSet.of(SandboxCapability.FILES_SURVIVE_STOP, SandboxCapability.RECONNECT_ACROSS_PROCESSES);
    }
}
