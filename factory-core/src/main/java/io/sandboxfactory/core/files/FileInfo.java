package io.sandboxfactory.core.files;

import java.time.Instant;
import java.util.Objects;

/**
 * One entry of a sandbox filesystem, as {@link SandboxFilesystem#list} and {@link
 * SandboxFilesystem#stat} report it.
 *
 * @param name the last component of the path ({@code ""} for the root)
 * @param type what it is
 * @param size bytes for a file, the link length for a link, what the filesystem reports otherwise
 * @param modified last modification, to the second at least
 * @param permissions the permission bits, e.g. {@code 0644}
 */
public record FileInfo(String name, FileType type, long size, Instant modified, int permissions) {

    public FileInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(modified, "modified");
    }

    public boolean isDirectory() {
        return type == FileType.DIRECTORY;
    }

    public boolean isFile() {
        return type == FileType.FILE;
    }
}
