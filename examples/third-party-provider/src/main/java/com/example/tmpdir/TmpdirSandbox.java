package com.example.tmpdir;

import io.sandboxfactory.api.CommandRequest;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.support.HostCommandRunner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * One session: a directory, and commands run in it with {@code /bin/sh -c}. MastraSandbox owns the
 * lifecycle (single-flight start, hooks, env overlay, idempotent stop/destroy); this class only
 * implements the primitives.
 */
final class TmpdirSandbox extends MastraSandbox<Path> {

    private final Path directory;
    /** The base environment of every command; the request's variables go on top. */
    private final Map<String, String> environment;
    private final HostCommandRunner commands;

    TmpdirSandbox(String sessionId, Path directory, Map<String, String> baseEnv) {
        super(sessionId, "tmpdir-" + sessionId);
        this.directory = directory;
        Map<String, String> environment = new HashMap<>(baseEnv);
        // HOME is the session directory, so tools writing dotfiles keep them inside the session, not in the host user's home.
        environment.put("HOME", directory.toString());
        this.environment = Map.copyOf(environment);
        this.commands = new HostCommandRunner(id());
    }

    @Override
    public Optional<String> workingDirectory() {
        return Optional.of(directory.toString());
    }

    // ---- acquisition: find -> connect, else create ----

    @Override
    protected Optional<Path> find() {
        return Files.isDirectory(directory) ? Optional.of(directory) : Optional.empty();
    }

    @Override
    protected void connect(Path handle) {
        // A directory needs no connecting.
    }

    @Override
    protected Path create() throws IOException {
        return Files.createDirectories(directory);
    }

    // ---- stop keeps the files, destroy removes them ----

    @Override
    protected void doStop(Path handle) {
        commands.killAll();
    }

    @Override
    protected void doDestroy(Path handle) throws IOException {
        doStop(handle);
        if (Files.exists(handle)) {
            try (Stream<Path> tree = Files.walk(handle)) {
                for (Path path : tree.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(path);
                }
            }
        }
    }

    // ---- commands ----

    /**
     * sh -c in the directory, a vanished directory or cwd refused, timeout and tree kill, streamed
     * and capped output: the framework's host runner does it all.
     */
    @Override
    protected CommandResult doExecute(CommandRequest request) {
        return commands.run(request, directory, environment);
    }
}
