package io.sandboxfactory.core.testing;

import io.sandboxfactory.api.CommandRequest;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxCapability;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

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

        ShellSandbox(String id, Path home) {
            super(id, "shell-" + id);
            this.home = home;
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

        @Override
        protected CommandResult doExecute(CommandRequest request) {
            ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", request.commandLine())
                    .directory(request.cwd().map(home::resolve).orElse(home).toFile());
            builder.environment().putAll(request.env());
            try {
                Process process = builder.start();
                process.getOutputStream().close();
                var err = java.util.concurrent.CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
                String out = read(process.getInputStream());
                process.waitFor(120, TimeUnit.SECONDS);
                return new CommandResult(process.exitValue(), out, err.join(), Duration.ZERO, false, false, false, request.commandLine());
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        private static String read(java.io.InputStream in) {
            try (in) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }
}
