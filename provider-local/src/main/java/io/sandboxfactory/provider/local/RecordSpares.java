package io.sandboxfactory.provider.local;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * The records of finished commands of one {@link RunningCommands}, kept as spare files in its
 * directory ({@code <pid>}{@value #SUFFIX}) for the next records to be written into, rather than
 * deleted. Why: a record made as a new file and deleted a few milliseconds later made every command
 * allocate and free an inode, and on ext4 allocating one among many recently freed ones cost more
 * CPU than everything else the JVM does for a command; overwriting a spare and renaming it allocates
 * none. Reapers read only files named by a pid, so they never take a spare for a record; they
 * delete spares, and the next record then is a new file again.
 */
final class RecordSpares {

    /** What a spare's name ends with: never a pid, as a record's name is. */
    static final String SUFFIX = ".spare";

    /** Enough for the commands one sandbox runs at a time; more are deleted. */
    private static final int MAX = 4;

    private final ConcurrentLinkedDeque<Path> kept = new ConcurrentLinkedDeque<>();

    /**
     * Writes {@code content} as the whole of {@code file}, made if missing. Over the old content, then cut
     * to its length, never truncated to empty first: ext4 flushes a file truncated to zero and rewritten
     * when it is closed (its {@code auto_da_alloc}), a disk write per command.
     */
    static void overwrite(Path file, byte[] content) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            ByteBuffer buffer = ByteBuffer.wrap(content);
            while (buffer.hasRemaining()) {
                channel.write(buffer, buffer.position());
            }
            channel.truncate(content.length);
        }
    }

    /** A spare to write the next record into, if one was kept; it may have been deleted since (writing makes it anew). */
    Optional<Path> take() {
        return Optional.ofNullable(kept.pollFirst());
    }

    /**
     * Turns the record of a finished command into a spare, or deletes it when enough are kept. A
     * spare is named after the record's pid, which no other live record has; a file of that name
     * left by another instance is never replaced, the record is deleted instead.
     */
    void keep(Path record) throws IOException {
        if (kept.size() >= MAX) {
            Files.deleteIfExists(record);
            return;
        }
        Path spare = record.resolveSibling(record.getFileName() + SUFFIX);
        try {
            // A link, not a rename: rename(2) would replace a spare of that name.
            Files.createLink(spare, record);
            kept.addFirst(spare);
        } catch (FileAlreadyExistsException | NoSuchFileException e) {
            // Another instance's spare of that name, or the record was reaped meanwhile: nothing to keep.
        }
        Files.deleteIfExists(record);
    }
}
