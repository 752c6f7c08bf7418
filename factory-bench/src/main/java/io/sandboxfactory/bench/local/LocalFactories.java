package io.sandboxfactory.bench.local;

import io.sandboxfactory.bench.BenchWorkspace;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.session.SessionSpec;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Local-provider factories of a bench run, each on a state directory and sessions root of its own under the workspace. */
public final class LocalFactories {

    private final BenchWorkspace workspace;

    public LocalFactories(BenchWorkspace workspace) {
        this.workspace = workspace;
    }

    /** A new factory on the local provider with its default isolation, its state under {@code <workspace>/<name>}. */
    public SandboxFactory create(String name) throws IOException {
        return create(name, Optional.empty());
    }

    /** A new factory on the local provider, its state under {@code <workspace>/<name>}; {@code isolation} as the key takes it (empty: the default). */
    public SandboxFactory create(String name, Optional<String> isolation) throws IOException {
        Path dir = workspace.directory(name);
        Map<String, Object> local = new LinkedHashMap<>(Map.of("root", dir.resolve("sessions").toString(), "env", workspace.processes().environment()));
        isolation.ifPresent(value -> local.put("isolation", value));
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
