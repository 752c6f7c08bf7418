package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.SandboxException;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Copies a session tree for templates: files under a {@code .git/objects} directory are hard
 * links (git never rewrites an object file in place, so sharing them is safe), every other regular
 * file goes through {@code cp --reflink=auto}, which clones extents where the file system can
 * (btrfs, XFS) and copies otherwise. Symbolic links are recreated as they are, never followed.
 * Directory permissions are applied last, so read-only directories still receive their entries.
 * Each copied checkout's index then gets the copies' stat data ({@link CopiedIndex}).
 *
 * <p>The tree is walked through open directories without following links ({@link ConfinedWalk}),
 * so a directory swapped for a link meanwhile fails the copy instead of leading it outside; a hard
 * link is kept only when it names the very file the walk saw. A session's own directory, which its
 * commands may change while it is copied ({@link #copyFromSession}), has its files read through the
 * open directories too, instead of by path with {@code cp}: no extent cloning there, but nothing
 * from outside the session can end up in a template.
 */
final class TreeCopier {

    /** Keeps each {@code cp} command line well under the kernel's argument limit. */
    private static final int MAX_BATCH_CHARS = 64 * 1024;

    private TreeCopier() {
    }

    /** Copies the provider's own {@code source} (a template's tree) to the new directory {@code target}, leaving out the top-level entries named in {@code skip}. */
    static void copy(Path source, Path target, Set<String> skip) throws IOException {
        copy(source, target, skip, false);
    }

    /** Copies a session's directory, which its commands may change meanwhile, to the new directory {@code target}. */
    static void copyFromSession(Path source, Path target, Set<String> skip) throws IOException {
        copy(source, target, skip, true);
    }

    /** What one copy collects while it walks. */
    private record Copy(Path source, Set<String> skip, boolean fromSession, List<String> byCp, Map<Path, Set<PosixFilePermission>> directories) {
    }

    private static void copy(Path source, Path target, Set<String> skip, boolean fromSession) throws IOException {
        Copy copy = new Copy(source, skip, fromSession, new ArrayList<>(), new LinkedHashMap<>());
        try (ConfinedWalk walk = ConfinedWalk.open(source, source.toString())) {
            Files.createDirectories(target);
            copy.directories().put(target, ConfinedWalk.attributes(walk.root(), null, source.toString()).permissions());
            visit(walk, walk.root(), List.of(), target, copy);
        } catch (SandboxException e) {
            throw new IOException("Copying " + source + " failed: " + e.getMessage(), e);
        }
        copyWithReflinks(source, target, copy.byCp());
        for (Path dir : copy.directories().keySet()) {
            Path relative = target.relativize(dir);
            if (dir.getFileName() != null && dir.getFileName().toString().equals(".git") && !isInsideGit(relative.getParent())) {
                refreshIndex(dir.getParent());
            }
        }
        for (Map.Entry<Path, Set<PosixFilePermission>> dir : copy.directories().entrySet()) {
            Files.setPosixFilePermissions(dir.getKey(), dir.getValue());
        }
    }

    private static void visit(ConfinedWalk walk, SecureDirectoryStream<Path> directory, List<String> components, Path targetDirectory,
                              Copy copy) throws IOException {
        List<String> names = new ArrayList<>();
        for (Path child : directory) {
            names.add(child.getFileName().toString());
        }
        for (String name : names) {
            if (components.isEmpty() && copy.skip().contains(name)) {
                continue;
            }
            String shown = String.join("/", components) + (components.isEmpty() ? "" : "/") + name;
            PosixFileAttributes attributes = ConfinedWalk.attributes(directory, name, shown);
            if (attributes == null) {
                continue;
            }
            List<String> relative = new ArrayList<>(components);
            relative.add(name);
            Path target = targetDirectory.resolve(name);
            if (attributes.isDirectory()) {
                Files.createDirectories(target);
                copy.directories().put(target, attributes.permissions());
                // Closed once visited (not kept by the walk): a deep tree holds one descriptor per level.
                try (SecureDirectoryStream<Path> child = directory.newDirectoryStream(Path.of(name), LinkOption.NOFOLLOW_LINKS)) {
                    visit(walk, child, relative, target, copy);
                } catch (FileSystemException e) {
                    throw ConfinedWalk.changed(shown, name, "it is no longer a real directory");
                }
            } else if (attributes.isSymbolicLink()) {
                Files.createSymbolicLink(target, Path.of(walk.readLink(components, name, attributes, shown)));
            } else if (attributes.isRegularFile()) {
                String path = String.join("/", relative);
                if (isGitObject(Path.of(path)) && linked(copy.source().resolve(path), target, attributes)) {
                    continue;
                }
                if (copy.fromSession()) {
                    copyFile(directory, name, target, attributes);
                } else {
                    copy.byCp().add(path);
                }
            }
            // Sockets and FIFOs belong to the processes that made them: not part of a template.
        }
    }

    /** Copies regular file {@code name} of {@code directory}, opened without following a link, with its mode and time. */
    private static void copyFile(SecureDirectoryStream<Path> directory, String name, Path target, PosixFileAttributes attributes) throws IOException {
        try (SeekableByteChannel in = directory.newByteChannel(Path.of(name), Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS));
             FileChannel out = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            if (in instanceof FileChannel file) {
                long at = 0;
                long size = file.size();
                while (at < size) {
                    at += file.transferTo(at, size - at, out);
                }
            } else {
                try (InputStream from = Channels.newInputStream(in); OutputStream to = Channels.newOutputStream(out)) {
                    from.transferTo(to);
                }
            }
        }
        Files.setPosixFilePermissions(target, attributes.permissions());
        Files.setLastModifiedTime(target, attributes.lastModifiedTime());
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

    private static boolean isGitObject(Path relative) {
        for (int i = 0; i + 1 < relative.getNameCount() - 1; i++) {
            if (relative.getName(i).toString().equals(".git") && relative.getName(i + 1).toString().equals("objects")) {
                return true;
            }
        }
        return false;
    }

    /**
     * A hard link, unless the two trees are on different file systems (then the file is copied).
     * {@code file} is linked by path, so the link is kept only when it names the very file the
     * walk saw ({@code seen}'s file key): a swap cannot make a template share a file from outside.
     */
    private static boolean linked(Path file, Path copy, BasicFileAttributes seen) throws IOException {
        try {
            Files.createLink(copy, file);
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
        if (!Objects.equals(Files.readAttributes(copy, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey(), seen.fileKey())) {
            Files.delete(copy);
            throw new IOException("Copying " + file + " failed: it changed while it was copied (a directory on its way was swapped).");
        }
        return true;
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
