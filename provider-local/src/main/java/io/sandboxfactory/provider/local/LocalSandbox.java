package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.CommandRequest;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.SandboxException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A session as a directory on the host: {@code <root>/<sessionId>}. Commands run with {@code
 * /bin/sh -c} in that directory, each in its own process group. Stop kills running commands and
 * keeps the files; destroy deletes the directory.
 */
public final class LocalSandbox extends MastraSandbox<Path> {

    /** Marks a directory as a session directory this provider made, so sweeps never touch others. */
    static final String OWNER_MARKER = ".sandbox-factory-session";

    private final Path directory;
    private final Map<String, String> baseEnv;
    private final ProcessGroupRunner runner;

    LocalSandbox(String sessionId, Path directory, Map<String, String> baseEnv, String setsid) {
        super(sessionId, "local-" + sessionId, LocalSandboxProvider.NAME);
        this.directory = directory;
        this.baseEnv = Map.copyOf(baseEnv);
        this.runner = new ProcessGroupRunner(setsid);
    }

    /** The session directory on the host. */
    public Path directory() {
        return directory;
    }

    @Override
    public Optional<String> workingDirectory() {
        return Optional.of(directory.toString());
    }

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
        Files.createDirectories(directory);
        Path marker = directory.resolve(OWNER_MARKER);
        if (!Files.exists(marker)) {
            Files.writeString(marker, id() + "\n", StandardCharsets.UTF_8);
        }
        return directory;
    }

    @Override
    protected void doStop(Path handle) {
        runner.killAll();
    }

    @Override
    protected void doDestroy(Path handle) throws IOException {
        runner.killAll();
        Directories.deleteRecursively(handle);
    }

    @Override
    protected CommandResult doExecute(CommandRequest request) {
        if (!Files.isDirectory(directory)) {
            throw new SandboxDestroyedException("Session directory " + directory + " of sandbox '" + id() + "' no longer exists.");
        }
        Path cwd = request.cwd().map(directory::resolve).orElse(directory);
        if (!Files.isDirectory(cwd)) {
            throw new SandboxException("CWD_MISSING", "Working directory " + cwd + " does not exist in sandbox '" + id() + "'.");
        }
        Map<String, String> env = new LinkedHashMap<>(baseEnv);
        env.putAll(request.env());
        return runner.run(request, cwd, env);
    }
}
