package io.sandboxfactory.core.session;

import io.sandboxfactory.api.SandboxResources;
import io.sandboxfactory.api.host.RepositoryAccessSource;
import io.sandboxfactory.api.support.HostProcess;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Builder for {@link SessionSpec}, from {@link SessionSpec#builder(String)} or {@link
 * SessionSpec#resume}; {@link #build()} validates.
 */
public final class SessionSpecBuilder {
    private final String sessionId;
    private String repository;
    private String branch;
    private String baseBranch;
    private List<String> setupCommands;
    private List<String> teardownCommands;
    private SessionEnvironment environment;
    private StartMode startMode = StartMode.EAGER;
    private RepositoryAccessSource repositoryAccess;
    private Duration setupTimeout;
    private SandboxResources resources = SandboxResources.none();
    private String workingDirectory;
    private final Map<String, String> labels = new LinkedHashMap<>();
    private boolean useTemplates = true;
    private HostProcess ephemeralOwner;
    private List<String> setupSecrets;
    private final List<String> egressAllow = new ArrayList<>();

    SessionSpecBuilder(String sessionId) {
        this.sessionId = sessionId;
    }

    /** An {@code owner/name} slug, a clone URL or a local path. */
    public SessionSpecBuilder repository(String repository) {
        this.repository = repository;
        return this;
    }

    public SessionSpecBuilder branch(String branch) {
        this.branch = branch;
        return this;
    }

    public SessionSpecBuilder baseBranch(String baseBranch) {
        this.baseBranch = baseBranch;
        return this;
    }

    /** Replaces the configured setup commands; none means no setup. */
    public SessionSpecBuilder setupCommands(String... commands) {
        return setupCommands(Arrays.asList(commands));
    }

    public SessionSpecBuilder setupCommands(List<String> commands) {
        this.setupCommands = List.copyOf(commands);
        return this;
    }

    /** Replaces the configured setup secrets (names of host variables); none means no secrets. */
    public SessionSpecBuilder setupSecrets(String... names) {
        return setupSecrets(Arrays.asList(names));
    }

    public SessionSpecBuilder setupSecrets(List<String> names) {
        this.setupSecrets = List.copyOf(names);
        return this;
    }

    /** Replaces the configured teardown commands; none means no teardown. */
    public SessionSpecBuilder teardownCommands(String... commands) {
        return teardownCommands(Arrays.asList(commands));
    }

    public SessionSpecBuilder teardownCommands(List<String> commands) {
        this.teardownCommands = List.copyOf(commands);
        return this;
    }

    /** The owner a session of the store was recorded with; hosts use {@link SessionSpec#ephemeralFor}. */
    SessionSpecBuilder ephemeralOwner(HostProcess ephemeralOwner) {
        this.ephemeralOwner = ephemeralOwner;
        return this;
    }

    public SessionSpecBuilder environment(SessionEnvironment environment) {
        this.environment = environment;
        return this;
    }

    public SessionSpecBuilder startMode(StartMode startMode) {
        this.startMode = startMode;
        return this;
    }

    public SessionSpecBuilder repositoryAccess(RepositoryAccessSource repositoryAccess) {
        this.repositoryAccess = repositoryAccess;
        return this;
    }

    public SessionSpecBuilder setupTimeout(Duration setupTimeout) {
        this.setupTimeout = setupTimeout;
        return this;
    }

    public SessionSpecBuilder resources(SandboxResources resources) {
        this.resources = resources;
        return this;
    }

    public SessionSpecBuilder workingDirectory(String workingDirectory) {
        this.workingDirectory = workingDirectory;
        return this;
    }

    /** Adds labels; a later value for the same key wins. */
    public SessionSpecBuilder labels(Map<String, String> labels) {
        this.labels.putAll(labels);
        return this;
    }

    public SessionSpecBuilder label(String key, String value) {
        this.labels.put(key, value);
        return this;
    }

    /** Whether a new sandbox may be made from a matching template (default true). */
    public SessionSpecBuilder useTemplates(boolean useTemplates) {
        this.useTemplates = useTemplates;
        return this;
    }

    /** Adds host patterns the session may reach in egress mode allowlist ({@code --egress-allow}). */
    public SessionSpecBuilder egressAllow(List<String> patterns) {
        this.egressAllow.addAll(patterns);
        return this;
    }

    public SessionSpec build() {
        return new SessionSpec(sessionId, Optional.ofNullable(repository), branch, Optional.ofNullable(baseBranch),
                Optional.ofNullable(setupCommands), Optional.ofNullable(teardownCommands), Optional.ofNullable(environment),
                startMode, Optional.ofNullable(repositoryAccess), Optional.ofNullable(setupTimeout), resources,
                Optional.ofNullable(workingDirectory), labels, useTemplates, Optional.ofNullable(ephemeralOwner),
                Optional.ofNullable(setupSecrets), egressAllow);
    }
}
