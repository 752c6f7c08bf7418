package io.sandboxfactory.provider.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Copies a session tree for templates: files under a {@code .git/objects} directory are hard
 * links (git never rewrites an object file in place, so sharing them is safe), every other regular
 * file goes through {@code cp --reflink=auto}, which clones extents where the file system can
 * (btrfs, XFS) and copies otherwise. Symbolic links are recreated as they are, never followed.
 * Directory permissions are applied last, so read-only directories still receive their entries.
 * Each copied checkout's index then gets the copies' stat data ({@link CopiedIndex}).
 */
final class TreeCopier {

    /** Keeps each {@code cp} command line well under the kernel's argument limit. */
    private static final int MAX_BATCH_CHARS = 64 * 1024;

    private TreeCopier() {
    }

    /** Copies {@code source} to the new directory {@code target}, leaving out the top-level entries named in {@code skip}. */
    static void copy(Path source, Path target, Set<String> skip) throws IOException {
        List<String> copies = new ArrayList<>();
        Map<Path, Set<PosixFilePermission>> directories = new LinkedHashMap<>();
        Files.walkFileTree(source, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Path relative = source.relativize(dir);
                if (skipped(relative, skip)) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                Path copy = target.resolve(relative.toString());
                Files.createDirectories(copy);
                directories.put(copy, Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Path relative = source.relativize(file);
                if (skipped(relative, skip)) {
                    return FileVisitResult.CONTINUE;
                }
                Path copy = target.resolve(relative.toString());
                if (attrs.isSymbolicLink()) {
                    Files.createSymbolicLink(copy, Files.readSymbolicLink(file));
                } else if (attrs.isRegularFile()) {
                    if (!(isGitObject(relative) && linked(file, copy))) {
                        copies.add(relative.toString());
                    }
                }
                // Sockets and FIFOs belong to the processes that made them: not part of a template.
                return FileVisitResult.CONTINUE;
            }
        });
        copyWithReflinks(source, target, copies);
        for (Path dir : directories.keySet()) {
            Path relative = target.relativize(dir);
            if (dir.getFileName() != null && dir.getFileName().toString().equals(".git") && !isInsideGit(relative.getParent())) {
                refreshIndex(dir.getParent());
            }
        }
        for (Map.Entry<Path, Set<PosixFilePermission>> dir : directories.entrySet()) {
            Files.setPosixFilePermissions(dir.getKey(), dir.getValue());
        }
    }

    /** A stale index only makes the first git command slower: a failure here is no failure of the copy. */
    private static void refreshIndex(Path checkout) {
        try {
            CopiedIndex.refresh(checkout);
        } catch (IOException | RuntimeException e) {
            // git re-hashes what it cannot trust, as it would without this.
        }
    }

    private static boolean isInsideGit(Path relative) {
        if (relative == null) {
            return false;
        }
        for (Path name : relative) {
            if (name.toString().equals(".git")) {
                return true;
            }
        }
        return false;
    }

    private static boolean skipped(Path relative, Set<String> skip) {
        return relative.getNameCount() == 1 && skip.contains(relative.toString());
    }

    private static boolean isGitObject(Path relative) {
        for (int i = 0; i + 1 < relative.getNameCount() - 1; i++) {
            if (relative.getName(i).toString().equals(".git") && relative.getName(i + 1).toString().equals("objects")) {
                return true;
            }
        }
        return false;
    }

    /** A hard link, unless the two trees are on different file systems (then the file is copied). */
    private static boolean linked(Path file, Path copy) {
        try {
            Files.createLink(copy, file);
            return true;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    private static void copyWithReflinks(Path source, Path target, List<String> files) throws IOException {
        List<String> batch = new ArrayList<>();
        int chars = 0;
        for (String file : files) {
            batch.add(file);
            chars += file.length() + 1;
            if (chars > MAX_BATCH_CHARS) {
                cp(source, target, batch);
                batch.clear();
                chars = 0;
            }
        }
        if (!batch.isEmpty()) {
            cp(source, target, batch);
        }
    }

    private static void cp(Path source, Path target, List<String> files) throws IOException {
        List<String> command = new ArrayList<>(List.of("cp", "--reflink=auto", "--preserve=mode,timestamps", "--no-dereference",
                "--parents", "-t", target.toString(), "--"));
        command.addAll(files);
        Process process = new ProcessBuilder(command).directory(source.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            int exit = process.waitFor();
            if (exit != 0) {
                throw new IOException("Copying " + source + " to " + target + " failed (cp exit " + exit + "): " + output.strip());
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("Copying " + source + " to " + target + " was interrupted.", e);
        }
    }
}
