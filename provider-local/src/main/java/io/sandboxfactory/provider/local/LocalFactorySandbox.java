package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.ErrorCode;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.support.HostProcess;
import io.sandboxfactory.api.support.TemplateStoreSandbox;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.api.SandboxInventory;
import io.sandboxfactory.api.SandboxListing;
import io.sandboxfactory.api.SandboxTemplate;
import io.sandboxfactory.api.TemplateBuild;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

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
    private final Launcher launcher;

    /** @param launchers makes the launcher of this instance's commands from the threads it may use */
    LocalFactorySandbox(Path root, Map<String, String> baseEnv, Function<CommandThreads, Launcher> launchers, Path templateDirectory) {
        this.root = root;
        this.baseEnv = Map.copyOf(baseEnv);
        this.launcher = launchers.apply(threads);
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
        return new LocalSandbox(ctx.sessionId(), directory, baseEnv, launcher, host, threads.recorder(), template);
    }

    @Override
    public SandboxTemplate buildTemplate(TemplateBuild build) {
        if (!(build.source() instanceof LocalSandbox source) || !root.equals(source.directory().getParent())) {
            throw new InvalidInputException(ErrorCode.INVALID_ARGUMENT, "Template source '" + build.source().id() + "' is not a session of the local provider under " + root + ".");
        }
        return templates.build(build.template(), source.directory());
    }

    @Override
    public TemplateStoreSandbox.Store templates() {
        return templates;
    }

    /** Lets a ready template copy in progress finish (bounded), then stops the fork server, if any; commands it started keep running until stopped or killed as usual. */
    @Override
    public void close() {
        readyCopies.close();
        launcher.close();
    }

    /** Commands run as host processes in the session directory: nothing holds them in. */
    @Override
    public String isolation() {
        return "none";
    }

    @Override
    public Set<SandboxCapability> capabilities() {
        return EnumSet.of(SandboxCapability.FILES_SURVIVE_STOP,
                SandboxCapability.RECONNECT_ACROSS_PROCESSES, SandboxCapability.INVENTORY, SandboxCapability.FILE_TRANSFER,
                SandboxCapability.TEMPLATES, SandboxCapability.HOST_DIRECTORIES);
    }

    @Override
    public List<SandboxListing> listSandboxes() {
        List<SandboxListing> listings = new ArrayList<>();
        for (Path dir : Directories.children(root, "local sessions")) {
            ownedSessionId(dir).ifPresent(sessionId -> listings.add(new SandboxListing(dir.toString(), sessionId, false, createdAt(dir))));
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
            throw new InvalidInputException(ErrorCode.INVALID_ARGUMENT, "Refusing to remove " + dir + ": it is not a session directory made by the local provider under " + root + ".");
        }
        try {
            new RunningCommands(dir, host, threads.recorder()).killAll();
            Directories.deleteRecursively(dir);
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
