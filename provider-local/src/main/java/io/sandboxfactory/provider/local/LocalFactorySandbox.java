package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.support.HostProcess;
import io.sandboxfactory.api.support.TemplateStoreSandbox;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.api.capability.SandboxInventory;
import io.sandboxfactory.api.capability.SandboxListing;
import io.sandboxfactory.api.capability.SandboxTemplate;
import io.sandboxfactory.api.capability.TemplateBuild;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The configured local provider: sessions are directories under one root. {@link #create} only
 * validates the session id and computes the path; the directory appears on {@code start()}.
 */
public final class LocalFactorySandbox implements TemplateStoreSandbox, SandboxInventory {

    private final Path root;
    private final Map<String, String> baseEnv;
    private final HostProcess host = HostProcess.current();
    private final LocalTemplates templates;
    private final ReadyCopies readyCopies;
    private final CommandThreads threads = new CommandThreads();
    /** Starts the commands of sessions run on the host; empty when every session has a boundary. */
    private final Optional<Launcher> hostLauncher;
    private final Optional<Boundaries> boundaries;
    /** The fork servers of isolated sessions (one each) until a session is destroyed; stopped on {@link #close()}. */
    private final Set<ForkServer> confinedServers = ConcurrentHashMap.newKeySet();

    /**
     * What an isolated factory confines each session with.
     *
     * @param fifoParent where each boundary's fork server gets its FIFO directory (see {@link ForkServer#fifoParent}), bound
     *     into the boundary at its path; empty: in the session's private directory
     */
    record Boundaries(String perl, Bubblewrap bubblewrap, HostUser user, List<String> volumes, Optional<String> setsid,
                      Optional<Path> fifoParent) {
    }

    /** Without isolation. @param launchers makes the launcher of this instance's commands from the threads it may use */
    LocalFactorySandbox(Path root, Map<String, String> baseEnv, Function<CommandThreads, Launcher> launchers, Path templateDirectory) {
        this(root, baseEnv, launchers, templateDirectory, Optional.empty());
    }

    /**
     * @param launchers makes the launcher of commands run on the host (without isolation)
     * @param boundaries present: every session's processes run inside a boundary of its own
     */
    LocalFactorySandbox(Path root, Map<String, String> baseEnv, Function<CommandThreads, Launcher> launchers, Path templateDirectory,
                        Optional<Boundaries> boundaries) {
        this.root = root;
        this.baseEnv = Map.copyOf(baseEnv);
        this.boundaries = boundaries;
        this.hostLauncher = boundaries.isPresent() ? Optional.empty() : Optional.of(launchers.apply(threads));
        this.readyCopies = new ReadyCopies(root.resolve(LocalTemplates.STAGING));
        this.templates = new LocalTemplates(templateDirectory, readyCopies);
    }

    /** The directory holding every session directory. */
    public Path root() {
        return root;
    }

    @Override
    public MastraSandbox<?> create(FactorySandboxContext ctx) {
        Path directory = SessionIds.sessionDirectory(root, ctx.sessionId());
        Optional<LocalSandbox.TemplateCopy> template = ctx.template().map(t -> {
            String name = SandboxTemplate.requireValidName(t.name());
            return target -> templates.copyInto(name, target);
        });
        RunningCommands running = new RunningCommands(directory, host, threads.recorder());
        if (boundaries.isEmpty()) {
            return new LocalSandbox(ctx.sessionId(), directory, baseEnv, running, new ProcessGroupRunner(hostLauncher.orElseThrow(), new HostTracking(running)),
                    Optional.empty(), command -> command, template);
        }
        Boundaries b = boundaries.get();
        SessionPrivate own = SessionPrivate.of(directory);
        Bubblewrap.Session session = new Bubblewrap.Session(directory, own, ctx.hostDirectories(), b.volumes());
        ForkServer server = new ForkServer(b.perl(), threads.pumps(), new ForkServer.Confinement() {
            @Override
            public Path newFifoDirectory() throws IOException {
                return own.newFifoDirectory(b.fifoParent());
            }

            @Override
            public Path errorLog(Path fifos) {
                return own.errorLog(fifos);
            }

            @Override
            public List<String> command(List<String> forkServer, Path fifos) {
                own.prepare(b.user());
                // bwrap leads a session of its own and is recorded like a command (below), so a stop or destroy
                // through another instance or process, which cannot reach this fork server, ends the boundary.
                List<String> command = new ArrayList<>();
                b.setsid().ifPresent(command::add);
                command.addAll(b.bubblewrap().command(session, List.of(fifos), forkServer));
                return command;
            }

            @Override
            public Process start(ProcessBuilder builder) throws IOException {
                Process process = builder.start();
                if (b.setsid().isPresent()) {
                    RunningCommands.Recording recording = running.started(new ProcessLauncher.ProcessLaunch(process, List.of()));
                    process.onExit().thenRun(() -> running.finished(recording));
                }
                return process;
            }
        });
        confinedServers.add(server);
        Map<String, String> env = new LinkedHashMap<>(baseEnv);
        // The host's HOME does not exist inside; the session's own does, and lasts as long as the session.
        env.put("HOME", own.home().toString());
        // A session of its own like every command: the caller's terminal is never the boundary's
        // controlling terminal (no input pushed into it); a shell on a terminal gets one inside (LocalShell).
        UnaryOperator<List<String>> interactive = command -> {
            own.prepare(b.user());
            return b.bubblewrap().command(session, List.of(), command);
        };
        return new LocalSandbox(ctx.sessionId(), directory, env, running, new ProcessGroupRunner(server, new BoundaryTracking(server, () -> confinedServers.remove(server))),
                Optional.of(own), interactive, template);
    }

    /** {@value LocalProviderConfig#NAMESPACES} when every session is confined, else {@value LocalProviderConfig#NONE}. */
    @Override
    public String isolation() {
        return boundaries.isPresent() ? LocalProviderConfig.NAMESPACES : LocalProviderConfig.NONE;
    }

    @Override
    public SandboxTemplate buildTemplate(TemplateBuild build) {
        if (!(build.source() instanceof LocalSandbox source) || !root.equals(source.directory().getParent())) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Template source '" + build.source().id() + "' is not a session of the local provider under " + root + ".");
        }
        return templates.build(build.template(), source.directory());
    }

    @Override
    public TemplateStoreSandbox.Store templates() {
        return templates;
    }

    /** How many fork servers of isolated sessions this factory holds (for tests). */
    int confinedServers() {
        return confinedServers.size();
    }

    /** Lets a ready template copy in progress finish (bounded), then stops the fork server, if any; commands it started keep running until stopped or killed as usual. */
    @Override
    public void close() {
        readyCopies.close();
        hostLauncher.ifPresent(Launcher::close);
        confinedServers.forEach(ForkServer::close);
    }

    /** {@code NETWORK_ISOLATION} when every session runs in a boundary with a network namespace of its own ({@code network: none}). */
    @Override
    public Set<SandboxCapability> capabilities() {
        Set<SandboxCapability> capabilities = EnumSet.of(SandboxCapability.FILES_SURVIVE_STOP,
                SandboxCapability.RECONNECT_ACROSS_PROCESSES, SandboxCapability.INVENTORY, SandboxCapability.FILE_TRANSFER,
                SandboxCapability.TEMPLATES, SandboxCapability.HOST_DIRECTORIES, SandboxCapability.ATTACH);
        if (boundaries.filter(b -> !b.bubblewrap().hostNetwork()).isPresent()) {
            capabilities.add(SandboxCapability.NETWORK_ISOLATION);
        }
        return capabilities;
    }

    /** Every session directory is up: commands run in it without a start (a stop only ends its commands). */
    @Override
    public List<SandboxListing> listSandboxes() {
        List<SandboxListing> listings = new ArrayList<>();
        for (Path dir : Directories.children(root, "local sessions")) {
            ownedSessionId(dir).ifPresent(sessionId -> listings.add(new SandboxListing(dir.toString(), sessionId, SandboxListing.State.UP, createdAt(dir))));
        }
        return listings;
    }

    @Override
    public void removeSandbox(SandboxListing sandbox) {
        Path dir = Path.of(sandbox.sandboxId()).normalize();
        if (!root.equals(dir.getParent()) || ownedSessionId(dir).isEmpty()) {
            if (!Files.exists(dir)) {
                return;
            }
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Refusing to remove " + dir + ": it is not a session directory made by the local provider under " + root + ".");
        }
        try {
            new RunningCommands(dir, host, threads.recorder()).killAll();
            Directories.deleteRecursively(dir);
            SessionPrivate.of(dir).delete();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not remove local session directory " + dir + ": " + e.getMessage(), e);
        }
    }

    private static Optional<String> ownedSessionId(Path dir) {
        Path marker = dir.resolve(LocalSandbox.OWNER_MARKER);
        if (!Files.isDirectory(dir) || !Files.isRegularFile(marker)) {
            return Optional.empty();
        }
        return Optional.of(dir.getFileName().toString());
    }

    private static Optional<java.time.Instant> createdAt(Path dir) {
        try {
            return Optional.of(Files.readAttributes(dir, BasicFileAttributes.class).creationTime().toInstant());
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
