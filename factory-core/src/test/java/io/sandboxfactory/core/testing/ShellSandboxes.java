package io.sandboxfactory.core.testing;

import io.sandboxfactory.api.CommandRequest;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.api.support.HostCommandRunner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * A provider like a remote one that has no configured working directory: its sandboxes run real
 * {@code /bin/sh} commands in a per-session directory but report {@code workingDirectory()} empty,
 * so the framework must find the root with {@code pwd}.
 */
public final class ShellSandboxes implements FactorySandbox {

    private final Path root;

    public ShellSandboxes(Path root) {
        this.root = root;
    }

    @Override
    public MastraSandbox<?> create(FactorySandboxContext ctx) {
        return new ShellSandbox(ctx.sessionId(), root.resolve(ctx.sessionId()));
    }

    @Override
    public Set<SandboxCapability> capabilities() {
        return EnumSet.of(SandboxCapability.FILES_SURVIVE_STOP);
    }

    static final class ShellSandbox extends MastraSandbox<Path> {
        private final Path home;
        private final HostCommandRunner commands;

        ShellSandbox(String id, Path home) {
            super(id, "shell-" + id);
            this.home = home;
            this.commands = new HostCommandRunner(id());
        }

        @Override
        public Optional<String> workingDirectory() {
            return Optional.empty();
        }

        @Override
        protected Optional<Path> find() {
            return Files.isDirectory(home) ? Optional.of(home) : Optional.empty();
        }

        @Override
        protected void connect(Path handle) {
        }

        @Override
        protected Path create() throws IOException {
            return Files.createDirectories(home);
        }

        @Override
        protected void doStop(Path handle) {
        }

        @Override
        protected void doDestroy(Path handle) throws IOException {
            try (var paths = Files.walk(handle)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }

        /** On top of this JVM's environment, as a remote sandbox has one of its own. */
        @Override
        protected CommandResult doExecute(CommandRequest request) {
            return commands.run(request, home, System.getenv());
        }
    }
}
