package io.sandboxfactory.provider.local;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * One ready copy of each template's tree, kept beside the session directories ({@code
 * <root>/.template-staging/ready/<name>/<uuid>}), so a cold open takes it with one rename instead
 * of copying the tree while the user waits (without reflinks, a copy is the whole working tree).
 * A template build makes the first one; each open that takes one starts a fresh one in the
 * background. Copies are made under {@code partial-<uuid>} and renamed when complete, and two
 * processes taking one race on a rename that only one wins, so no open ever gets half a tree or
 * another open's tree. Removing a template removes its ready copies.
 */
final class ReadyCopies implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ReadyCopies.class.getName());
    private static final String READY = "ready";
    private static final String PARTIAL = "partial-";
    private static final Duration ABANDONED_AFTER = Duration.ofDays(1);

    private final Path staging;
    private final Set<String> refilling = ConcurrentHashMap.newKeySet();
    private final ExecutorService refills = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "local-template-ready-copy");
        t.setDaemon(true);
        return t;
    });

    /** @param staging the staging directory beside the session directories (same file system, so renames work) */
    ReadyCopies(Path staging) {
        this.staging = staging;
    }

    /** Makes a ready copy of {@code tree} for template {@code name} now. */
    void prepare(String name, Path tree) throws IOException {
        Path partial = staging.resolve(PARTIAL + UUID.randomUUID());
        try {
            Files.createDirectories(staging);
            TreeCopier.copy(tree, partial, Set.of());
            Path ready = staging.resolve(READY).resolve(name);
            Files.createDirectories(ready);
            Files.move(partial, ready.resolve(UUID.randomUUID().toString()), StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Directories.deleteRecursively(partial);
        }
    }

    /** Moves a ready copy of template {@code name} to {@code target} (absent or an empty directory); false when there is none. */
    boolean claim(String name, Path target) throws IOException {
        Path ready = staging.resolve(READY).resolve(name);
        if (!Files.isDirectory(ready)) {
            return false;
        }
        List<Path> copies;
        try (Stream<Path> children = Files.list(ready)) {
            copies = children.toList();
        }
        for (Path copy : copies) {
            try {
                Files.deleteIfExists(target);
                Files.move(copy, target, StandardCopyOption.ATOMIC_MOVE);
                return true;
            } catch (NoSuchFileException taken) {
                // Another open took this one first.
            } catch (DirectoryNotEmptyException e) {
                throw new IOException("Session directory " + target + " is not empty; a template copy is only moved into an empty one.", e);
            }
        }
        return false;
    }

    /** Makes a ready copy of {@code tree} in the background, unless one is there or being made by this instance. */
    void refill(String name, Path tree) {
        if (!refilling.add(name)) {
            return;
        }
        try {
            refills.execute(() -> {
                try {
                    removeAbandonedPartials();
                    if (!hasReady(name) && Files.isDirectory(tree)) {
                        prepare(name, tree);
                    }
                } catch (IOException | RuntimeException e) {
                    LOG.log(Level.WARNING, "Preparing a ready copy of local template " + name + " failed; the next open copies it: "
                            + e.getMessage());
                } finally {
                    refilling.remove(name);
                }
            });
        } catch (RejectedExecutionException closed) {
            refilling.remove(name);
        }
    }

    /** Removes the ready copies of template {@code name}. */
    void discard(String name) throws IOException {
        Directories.deleteRecursively(staging.resolve(READY).resolve(name));
    }

    /** Partial copies a day old belong to a process that died copying (a copy takes seconds): removed. */
    private void removeAbandonedPartials() throws IOException {
        if (!Files.isDirectory(staging)) {
            return;
        }
        Instant cutoff = Instant.now().minus(ABANDONED_AFTER);
        List<Path> partials;
        try (Stream<Path> children = Files.list(staging)) {
            partials = children.filter(p -> p.getFileName().toString().startsWith(PARTIAL)).toList();
        }
        for (Path partial : partials) {
            try {
                if (Files.getLastModifiedTime(partial).toInstant().isBefore(cutoff)) {
                    Directories.deleteRecursively(partial);
                }
            } catch (NoSuchFileException gone) {
                // Finished or removed meanwhile.
            }
        }
    }

    private boolean hasReady(String name) throws IOException {
        Path ready = staging.resolve(READY).resolve(name);
        if (!Files.isDirectory(ready)) {
            return false;
        }
        try (Stream<Path> children = Files.list(ready)) {
            return children.findAny().isPresent();
        }
    }

    /** Lets a copy in progress finish (a short-lived process still leaves the next open its ready copy), bounded. */
    @Override
    public void close() {
        refills.shutdown();
        try {
            if (!refills.awaitTermination(2, TimeUnit.MINUTES)) {
                refills.shutdownNow();
            }
        } catch (InterruptedException e) {
            refills.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
