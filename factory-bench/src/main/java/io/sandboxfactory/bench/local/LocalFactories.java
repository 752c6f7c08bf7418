package io.sandboxfactory.bench.local;

import io.sandboxfactory.bench.BenchWorkspace;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.session.SessionSpec;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/** Local-provider factories of a bench run, each on a state directory and sessions root of its own under the workspace. */
public final class LocalFactories {

    private final BenchWorkspace workspace;

    public LocalFactories(BenchWorkspace workspace) {
        this.workspace = workspace;
    }

    /** A new factory on the local provider, its state under {@code <workspace>/<name>}. */
    public SandboxFactory create(String name) throws IOException {
        Path dir = workspace.directory(name);
        Map<String, Object> local = Map.of("root", dir.resolve("sessions").toString(), "env", workspace.processes().environment());
        return SandboxFactory.builder()
                .config(FactoryConfig.builder().provider("local").providerSection("local", local).build())
                .stateDirectory(dir.resolve("state"))
                .environment(workspace.processes().environment())
                .build();
    }

    /** An eager open of {@code sessionId} on the workspace's bare repository, branch {@code b} from {@code main}, no setup. */
    public SessionSpec spec(String sessionId) {
        return SessionSpec.builder(sessionId).repository(workspace.bareRepository().toString()).branch("b").baseBranch("main").build();
    }
}
