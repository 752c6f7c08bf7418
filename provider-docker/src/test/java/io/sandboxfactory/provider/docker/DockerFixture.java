package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.testing.TestProviderContext;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.support.HostProcess;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.UnaryOperator;

/**
 * What a Docker integration test needs: a unique run label that every container it makes carries,
 * factories opened with it (closed at the end), an admin client for looking at the engine from
 * outside the provider, and cleanup that removes every container of the run. One per test.
 */
final class DockerFixture implements AutoCloseable {

    static final String RUN_LABEL = "sandbox-factory.test-run";
    static final String EXEC_CHANNEL_PROPERTY = "sandboxfactory.docker.execChannel";
    static final String RUNTIME_PROPERTY = "sandboxfactory.docker.runtime";

    private final String runId = UUID.randomUUID().toString();
    private final String owner = "it-" + runId;
    private final DockerConnection admin = new DockerConnection(DockerProviderConfig.defaults());
    private final List<DockerFactorySandbox> factories = new ArrayList<>();

    /** The tenant the default factories are (the owner, with the JVM's temporary directory as state directory). */
    Tenant tenant() {
        return Tenant.of(owner, stateDirectory());
    }

    private static Path stateDirectory() {
        return Path.of(System.getProperty("java.io.tmpdir"));
    }

    /** The owner the default factories use. */
    String owner() {
        return owner;
    }

    /** A session id unique to this run. */
    String sessionId(String hint) {
        return hint + "-" + UUID.randomUUID();
    }

    /** A factory with the default config plus the run label. */
    DockerFactorySandbox factory() {
        return factory(owner, b -> b);
    }

    /** A factory for {@code owner} whose config {@code customize} adjusts; the run label is always added. */
    DockerFactorySandbox factory(String owner, UnaryOperator<DockerProviderConfig.Builder> customize) {
        return factory(customize, new TestProviderContext(stateDirectory(), owner));
    }

    /** A factory opened with {@code context} (its owner and state directory) whose config {@code customize} adjusts. */
    DockerFactorySandbox factory(UnaryOperator<DockerProviderConfig.Builder> customize, TestProviderContext context) {
        DockerProviderConfig config = customize.apply(DockerProviderConfig.builder().execChannel(execChannelMode()).runtime(runtime())).build();
        Map<String, String> labels = new java.util.LinkedHashMap<>(config.labels());
        labels.put(RUN_LABEL, runId);
        DockerFactorySandbox factory = new DockerSandboxProvider().open(config.toBuilder().labels(labels).build(),
                context);
        synchronized (factories) {
            factories.add(factory);
        }
        return factory;
    }

    /** A factory with the default config plus the run label, whose commands say {@code host} started them. */
    DockerFactorySandbox factoryAs(HostProcess host) {
        Map<String, String> labels = new java.util.LinkedHashMap<>();
        labels.put(RUN_LABEL, runId);
        DockerFactorySandbox factory = new DockerFactorySandbox(DockerProviderConfig.builder().execChannel(execChannelMode()).runtime(runtime())
                .labels(labels).build(), tenant(), host);
        synchronized (factories) {
            factories.add(factory);
        }
        return factory;
    }

    /**
     * The {@code execChannel} the run's factories use unless a test sets it: the system property
     * {@value #EXEC_CHANNEL_PROPERTY} ({@code true}/{@code false}), else the provider's default. The
     * build runs the integration tests once per value.
     */
    static Boolean execChannelMode() {
        String mode = System.getProperty(EXEC_CHANNEL_PROPERTY);
        return mode == null || mode.isBlank() ? null : Boolean.valueOf(mode.trim());
    }

    /**
     * The {@code runtime} the run's factories use unless a test sets it: the system property
     * {@value #RUNTIME_PROPERTY} (such as {@code runsc}), else the engine's default. The build runs
     * the integration tests once more with {@code runsc}.
     */
    static String runtime() {
        String runtime = System.getProperty(RUNTIME_PROPERTY);
        return runtime == null || runtime.isBlank() ? null : runtime.trim();
    }

    /** A fresh sandbox instance of {@code factory} for {@code sessionId}. */
    DockerSandbox sandbox(DockerFactorySandbox factory, String sessionId) {
        return factory.create(FactorySandboxContext.of(sessionId));
    }

    /** The engine, seen from outside the provider. */
    DockerClient engine() {
        return admin.client();
    }

    /** Labels every container of this run carries. */
    Map<String, String> runLabels() {
        return Map.of(RUN_LABEL, runId);
    }

    /** Containers of this run carrying the session label {@code sessionId}, in any state. */
    List<Container> containersOfSession(String sessionId) {
        return engine().listContainersCmd().withShowAll(true)
                .withLabelFilter(Map.of(RUN_LABEL, runId, SandboxLabels.SESSION, sessionId))
                .exec();
    }

    @Override
    public void close() {
        try {
            for (Container c : engine().listContainersCmd().withShowAll(true).withLabelFilter(runLabels()).exec()) {
                try {
                    engine().removeContainerCmd(c.getId()).withForce(true).withRemoveVolumes(true).exec();
                } catch (RuntimeException e) {
                    if (!DockerFailures.isNotFound(e) && !DockerFailures.isConflict(e)) {
                        throw e;
                    }
                }
            }
        } finally {
            synchronized (factories) {
                factories.forEach(DockerFactorySandbox::close);
            }
            admin.close();
        }
    }
}
