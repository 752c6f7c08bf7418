package io.sandboxfactory.provider.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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
        return Files.createTempDirectory(parent.orElse(base), parent.isPresent() ? "sandbox-factory-fork-" : "fifos-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }

    /** Where the fork server of {@code fifos} keeps what it (and bwrap) said on stderr: here, removed with the session wherever its FIFOs are. */
    Path errorLog(Path fifos) {
        return base.resolve(fifos.getFileName() + ".log");
    }

    void delete() throws IOException {
        Directories.deleteRecursively(base);
    }
}
