package io.sandboxfactory.provider.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

/**
 * What an isolated session owns besides its checkout, under {@code <root>/}{@value #DIRECTORY}{@code
 * /<sessionId>/} — outside the session directory, so none of it shows in the checkout's {@code git
 * status}: {@code tmp/} (the session's {@code /tmp}), {@code home/} (its {@code HOME}, seen at its
 * own host path), the synthesized {@code passwd} and {@code group} that name only the running
 * user, and the fork server's FIFO directories. Kept across the session's commands and fork server
 * restarts; removed with the session.
 */
record SessionPrivate(Path base) {

    /** The directory, under the sessions root, holding one private directory per session. */
    static final String DIRECTORY = ".sandbox-factory-private";

    /** How the name of a FIFO directory in shared memory begins. */
    private static final String SHARED_FIFOS = "sandbox-factory-fork-";
    private static final String LOG = ".log";

    static SessionPrivate of(Path sessionDirectory) {
        return new SessionPrivate(sessionDirectory.resolveSibling(DIRECTORY).resolve(sessionDirectory.getFileName()));
    }

    Path tmp() {
        return base.resolve("tmp");
    }

    Path home() {
        return base.resolve("home");
    }

    Path passwd() {
        return base.resolve("passwd");
    }

    Path group() {
        return base.resolve("group");
    }

    /** Makes the directories and writes the user files; idempotent. */
    void prepare(HostUser user) {
        try {
            Files.createDirectories(base);
            Files.createDirectories(home());
            if (!Files.isDirectory(tmp())) {
                Files.createDirectories(tmp());
                // Like the host's /tmp: anyone may create, only owners remove.
                Files.setAttribute(tmp(), "unix:mode", 01777);
            }
            Files.writeString(passwd(), user.passwdLine(home()), StandardCharsets.UTF_8);
            Files.writeString(group(), user.groupLine(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not prepare the private directory " + base + " of a local session: " + e.getMessage(), e);
        }
    }

    /**
     * A new FIFO directory (mode 0700) for one fork server of the session, under {@code parent} (a tmpfs: see {@link
     * ForkServer#fifoParent}), else in this private directory.
     */
    Path newFifoDirectory(Optional<Path> parent) throws IOException {
        Files.createDirectories(base);
        return Files.createTempDirectory(parent.orElse(base), parent.isPresent() ? SHARED_FIFOS : "fifos-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }

    /**
     * Where the fork server of {@code fifos} keeps what it (and bwrap) said on stderr: here, named after the FIFO
     * directory, so {@link #delete()} finds that directory wherever it is.
     */
    Path errorLog(Path fifos) {
        return base.resolve(fifos.getFileName() + LOG);
    }

    /**
     * Deletes this directory and the FIFO directories of the session's servers in shared memory. A server in a
     * boundary cannot remove its own (it is a mount point there), and one whose JVM died without closing the
     * provider leaves it behind with its log.
     */
    void delete() throws IOException {
        if (Files.isDirectory(base)) {
            try (DirectoryStream<Path> logs = Files.newDirectoryStream(base, SHARED_FIFOS + "*" + LOG)) {
                for (Path log : logs) {
                    String name = log.getFileName().toString();
                    Directories.deleteRecursively(ForkServer.SHARED_MEMORY.resolve(name.substring(0, name.length() - LOG.length())));
                }
            }
        }
        Directories.deleteRecursively(base);
    }
}
