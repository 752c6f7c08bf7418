package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.capability.SandboxTemplate;
import io.sandboxfactory.api.support.TemplateStoreSandbox;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The local provider's templates: {@code <state dir>/templates/local/<name>/} holds {@code
 * template.properties} (the key) and {@code tree/} (the session directory as it was after setup).
 * A template is built under a hidden {@code .<name>.partial} directory and renamed into place
 * when complete, so a listing never shows half of one. Names are validated by {@link
 * SandboxTemplate#requireValidName}, so they never escape the directory.
 *
 * @param directory where the templates are kept
 * @param ready the ready copies of the templates, made ahead of the sessions that take them
 */
record LocalTemplates(Path directory, ReadyCopies ready) implements TemplateStoreSandbox.Store {

    private static final Logger LOG = Logger.getLogger(LocalTemplates.class.getName());
    /** Beside the session directories, so what is staged there is renamed into place on one file system. */
    static final String STAGING = ".template-staging";
    private static final String META = "template.properties";
    private static final String TREE = "tree";
    /** What a session directory holds that belongs to the session, not to a template. */
    private static final Set<String> SESSION_ONLY = Set.of(LocalSandbox.OWNER_MARKER, RunningCommands.DIRECTORY);

    /** The complete templates: a partial one's directory starts with a dot. */
    @Override
    public List<SandboxTemplate> list() {
        return Directories.children(directory, "local templates").stream()
                .filter(child -> !child.getFileName().toString().startsWith("."))
                .flatMap(child -> read(child).stream())
                .toList();
    }

    SandboxTemplate build(SandboxTemplate template, Path sessionDirectory) {
        Path done = directory.resolve(SandboxTemplate.requireValidName(template.name()));
        Path partial = directory.resolve("." + template.name() + ".partial");
        try {
            Files.createDirectories(directory);
            Directories.deleteRecursively(partial);
            Files.createDirectories(partial);
            TreeCopier.copyFromSession(sessionDirectory, partial.resolve(TREE), SESSION_ONLY);
            write(template, partial.resolve(META));
            Files.move(partial, done, StandardCopyOption.ATOMIC_MOVE);
            // The first open from it then takes this copy instead of copying while it waits; opens refill it.
            try {
                ready.prepare(template.name(), done.resolve(TREE));
            } catch (IOException e) {
                LOG.log(Level.WARNING, "Preparing a ready copy of local template " + template.name() + " failed; opens copy it: "
                        + e.getMessage());
            }
            return template;
        } catch (IOException e) {
            try {
                Directories.deleteRecursively(partial);
            } catch (IOException ignored) {
                // Left for the next build of the same name, which removes it first.
            }
            throw new UncheckedIOException("Could not build local template " + template.name() + " from " + sessionDirectory + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public void remove(String name) {
        try {
            Directories.deleteRecursively(directory.resolve(SandboxTemplate.requireValidName(name)));
            ready.discard(name);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not remove local template " + name + ": " + e.getMessage(), e);
        }
    }

    /**
     * Makes {@code sessionDirectory} a copy of the template's tree: a ready copy when there is one
     * ({@link ReadyCopies}), else copied into a staging directory beside it and renamed into place,
     * so a copy cut short never looks like a session; then a fresh ready copy is made in the background.
     */
    void copyInto(String name, Path sessionDirectory) throws IOException {
        Path tree = directory.resolve(SandboxTemplate.requireValidName(name)).resolve(TREE);
        if (!Files.isDirectory(tree)) {
            throw new IOException("Local template " + name + " has no tree at " + tree + "; it was removed or is damaged.");
        }
        try {
            if (!ready.claim(name, sessionDirectory)) {
                copy(tree, sessionDirectory);
            }
        } finally {
            ready.refill(name, tree);
        }
    }

    private static void copy(Path tree, Path sessionDirectory) throws IOException {
        Path staging = sessionDirectory.resolveSibling(STAGING).resolve(UUID.randomUUID().toString());
        try {
            Files.createDirectories(staging.getParent());
            TreeCopier.copy(tree, staging, Set.of());
            Files.deleteIfExists(sessionDirectory); // only an empty directory: create() refuses anything else first
            Files.move(staging, sessionDirectory, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Directories.deleteRecursively(staging);
        }
    }

    private static void write(SandboxTemplate template, Path file) throws IOException {
        Properties meta = new Properties();
        meta.setProperty("name", template.name());
        meta.setProperty("provider", template.provider());
        meta.setProperty("subject", template.subject());
        meta.setProperty("setupHash", template.setupHash());
        meta.setProperty("inputsHash", template.inputsHash());
        meta.setProperty("baseCommit", template.baseCommit());
        meta.setProperty("createdAt", template.createdAt().toString());
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            meta.store(out, "sandbox-factory template");
        }
    }

    /** A directory without a readable key is no template of ours: not listed. */
    private static Optional<SandboxTemplate> read(Path dir) {
        Path file = dir.resolve(META);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        Properties meta = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            meta.load(in);
            return Optional.of(new SandboxTemplate(dir.getFileName().toString(), meta.getProperty("provider", ""),
                    meta.getProperty("subject", ""), meta.getProperty("setupHash", ""), meta.getProperty("inputsHash", ""),
                    meta.getProperty("baseCommit", ""), Instant.parse(meta.getProperty("createdAt"))));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
