package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.support.EnvironmentVariables;
import io.sandboxfactory.api.capability.AttachableSandbox;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandRequest;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.files.FileOperationsSandbox;
import io.sandboxfactory.api.support.HostCommandRunner;
import io.sandboxfactory.api.support.HostProcess;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.SandboxExecTransportException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * A session as a directory on the host: {@code <root>/<sessionId>}. Commands run with {@code
 * /bin/sh -c} in that directory, each in its own process group, and are recorded while they run
 * ({@link RunningCommands}). A start ends the commands a dead host process left running. Stop kills
 * running commands — this instance's, what they left running in the background, and those other
 * processes recorded — and keeps the files; destroy also deletes the directory. A directory removed
 * from outside makes the next command throw {@link SandboxDestroyedException}. Every file
 * operation runs in java.nio on the host ({@link LocalFileTransfer}), walking from the root through
 * open directories so that no link, even one swapped in meanwhile, leads it out of the root.
 */
public final class LocalSandbox extends MastraSandbox<Path> implements FileOperationsSandbox, AttachableSandbox {

    /** Marks a directory as a session directory this provider made, so sweeps never touch others. */
    static final String OWNER_MARKER = ".sandbox-factory-session";

    private final Path directory;
    private final Map<String, String> baseEnv;
    private final RunningCommands running;
    private final ProcessGroupRunner runner;
    /** The session's private /tmp, HOME and user files when it is isolated; removed with it. */
    private final Optional<SessionPrivate> own;
    private final LocalShell shell;
    private final LocalFileTransfer files;
    /** Fills a new session directory from a template; absent for an empty start. */
    private final Optional<TemplateCopy> template;

    /** How a new session directory is filled from a template before its owner marker is written. */
    @FunctionalInterface
    interface TemplateCopy {
        void into(Path directory) throws IOException;
    }

    /**
     * @param running the records of commands run on the host (none are written for an isolated
     *     session, but one run without isolation before may have left some)
     * @param runner runs the commands, on the host or inside the session's boundary
     * @param interactive how a program the caller runs interactively is put where the session's commands run
     */
    LocalSandbox(String sessionId, Path directory, Map<String, String> baseEnv, RunningCommands running, ProcessGroupRunner runner,
                 Optional<SessionPrivate> own, UnaryOperator<List<String>> interactive, Optional<TemplateCopy> template) {
        super(sessionId, "local-" + sessionId);
        this.directory = directory;
        this.baseEnv = Map.copyOf(baseEnv);
        this.running = running;
        this.runner = runner;
        this.own = own;
        this.shell = new LocalShell(interactive);
        this.files = new LocalFileTransfer(directory);
        this.template = template;
    }

    /** The session directory on the host. */
    public Path directory() {
        return directory;
    }

    /**
     * The caller's shell where this session's commands run, with the environment they get (read
     * with {@code env} in the session, so the boundary's own variables are in it); see {@link LocalShell}.
     */
    @Override
    public Attach attach(Request request) {
        CommandResult env = executeCommand("env", List.of("-0"), CommandOptions.builder().cwd(request.directory())
                .timeout(Duration.ofMinutes(1)).build());
        return new Attach(shell.command(request), LocalShell.environment(env, id()), Optional.of(directory.resolve(request.directory())));
    }

    @Override
    public Optional<String> workingDirectory() {
        return Optional.of(directory.toString());
    }

    /** Finds the session directory only when it carries this provider's marker; see {@link #create()}. */
    @Override
    protected Optional<Path> find() {
        return Files.isDirectory(directory) && Files.isRegularFile(directory.resolve(OWNER_MARKER))
                ? Optional.of(directory) : Optional.empty();
    }

    /**
     * A directory needs no connecting, but commands that a host process which died left running in
     * it (a clone, a checkout, a setup cut short by a crash) are ended first, so they cannot race
     * the work this start is about to redo; see {@link RunningCommands}.
     */
    @Override
    protected void connect(Path handle) {
        running.reapOrphans();
    }

    /**
     * Makes the session directory and its owner marker. An existing directory without the marker
     * is adopted only when empty: anything else was not made by this provider, and adopting it
     * would let a later {@code destroy()} delete someone else's files. With a template, the
     * directory is first made a copy of the template's tree.
     */
    @Override
    protected Path create() throws IOException {
        Path marker = directory.resolve(OWNER_MARKER);
        if (Files.isDirectory(directory) && !Files.exists(marker) && !isEmpty(directory)) {
            throw new SandboxException(LocalErrorCode.FOREIGN_DIRECTORY, "Directory " + directory + " already exists and was not made by the local provider (it has no "
                    + OWNER_MARKER + " marker); refusing to use it for session '" + id() + "'.");
        }
        if (template.isPresent() && (!Files.exists(directory) || isEmpty(directory))) {
            template.get().into(directory);
        }
        Files.createDirectories(directory);
        if (!Files.exists(marker)) {
            Files.writeString(marker, id() + "\n", StandardCharsets.UTF_8);
        }
        return directory;
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        }
    }

    /** Kills this instance's commands and what they left in the background, and every command recorded as running here. */
    @Override
    protected void doStop(Path handle) {
        runner.killAll();
        running.killAll();
    }

    @Override
    protected void doDestroy(Path handle) throws IOException {
        runner.end();
        running.killAll();
        Directories.deleteRecursively(handle);
        if (own.isPresent()) {
            own.get().delete();
        }
    }

    /** Runs in the session directory, or in {@code cwd} resolved against it when relative. */
    @Override
    protected CommandResult doExecute(CommandRequest request) {
        requireDirectory();
        Path cwd = HostCommandRunner.workingDirectory(request, directory, id());
        EnvironmentVariables.requireValid(request.env(), "Command environment");
        Map<String, String> env = new LinkedHashMap<>(baseEnv);
        env.putAll(request.env());
        try {
            return runner.run(request, cwd, env);
        } catch (SandboxExecTransportException e) {
            // The shell could not start; if that is because the session vanished, say so.
            requireDirectory();
            throw e;
        }
    }

    @Override
    public Optional<Resolution> resolve(String path) {
        requireDirectory(runningHandle());
        return Optional.of(files.resolve(path));
    }

    @Override
    public void copyIn(String root, String directory, Source source) {
        requireDirectory(runningHandle());
        files.copyIn(root, directory, source);
    }

    @Override
    public void copyOut(String root, String path, Sink sink) {
        requireDirectory(runningHandle());
        files.copyOut(root, path, sink);
    }

    @Override
    public Resolution resolve(String root, String path) {
        requireDirectory(runningHandle());
        return files.resolve(root, path);
    }

    @Override
    public List<FileStat> list(String root, String path) {
        requireDirectory(runningHandle());
        return files.list(root, path);
    }

    @Override
    public FileStat stat(String root, String path) {
        requireDirectory(runningHandle());
        return files.stat(root, path);
    }

    @Override
    public Resolution mkdirs(String root, String path) {
        requireDirectory(runningHandle());
        return files.mkdirs(root, path);
    }

    @Override
    public void delete(String root, String path, boolean recursive) {
        requireDirectory(runningHandle());
        files.delete(root, path, recursive);
    }

    @Override
    public void move(String root, String from, String to) {
        requireDirectory(runningHandle());
        files.move(root, from, to);
    }

    @Override
    public void write(String root, String path, InputStream content, int mode) {
        requireDirectory(runningHandle());
        files.write(root, path, content, mode);
    }

    @Override
    public void append(String root, String path, InputStream content) {
        requireDirectory(runningHandle());
        files.append(root, path, content);
    }

    private void requireDirectory() {
        requireDirectory(directory);
    }

    private void requireDirectory(Path directory) {
        if (!Files.isDirectory(directory)) {
            throw new SandboxDestroyedException("Session directory " + directory + " of sandbox '" + id() + "' no longer exists.");
        }
    }
}
