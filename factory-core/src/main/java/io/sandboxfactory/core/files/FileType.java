package io.sandboxfactory.core.files;

/** What an entry of a sandbox filesystem is. Symbolic links are reported as links in listings. */
public enum FileType {
    FILE,
    DIRECTORY,
    SYMLINK,
    /** A device, socket or FIFO. */
    OTHER;

    /** The type encoded in a raw {@code st_mode} ({@code stat -c %f}). */
    static FileType ofMode(int mode) {
        return switch (mode & 0170000) {
            case 0100000 -> FILE;
            case 0040000 -> DIRECTORY;
            case 0120000 -> SYMLINK;
            default -> OTHER;
        };
    }
}
