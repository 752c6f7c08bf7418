package io.sandboxfactory.provider.support;

import io.sandboxfactory.api.files.FileTransferSandbox;
import io.sandboxfactory.api.files.TransferEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.io.input.CloseShieldInputStream;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Hands the entries of a tar archive of one path in a sandbox (what a container engine's archive
 * endpoint or {@code tar -c} in a pod sends) to a {@link FileTransferSandbox.Sink}, the inverse of
 * {@link TarStream}: directories, symbolic links (their target as it is), files with their content
 * streamed from the archive, and a hard link as a file with the content of its original, fetched
 * again because the archive names the original instead of repeating it.
 */
public final class TarEntries {

    /** Fetches the archive of another path in the same sandbox: a hard link's original. */
    @FunctionalInterface
    public interface Originals {
        void copyOut(String path, FileTransferSandbox.Sink sink);
    }

    private TarEntries() {
    }

    /**
     * Delivers every entry of {@code archive}, the archive of {@code path}, to {@code sink}. Does not
     * close {@code archive}: a caller may have to read what follows the end-of-archive blocks.
     *
     * @throws IOException when reading the archive fails
     * @throws UncheckedIOException when the sink fails to take an entry
     */
    public static void deliver(InputStream archive, String path, FileTransferSandbox.Sink sink, Originals originals) throws IOException {
        String parent = path.substring(0, Math.max(path.lastIndexOf('/'), 1));
        TarArchiveInputStream tar = new TarArchiveInputStream(archive, StandardCharsets.UTF_8.name());
        TarArchiveEntry header;
        while ((header = tar.getNextEntry()) != null) {
            String name = trimSlash(header.getName());
            int mode = header.getMode() & 07777;
            if (header.isDirectory()) {
                take(sink, TransferEntry.directory(name, mode), InputStream.nullInputStream());
            } else if (header.isSymbolicLink()) {
                take(sink, TransferEntry.symlink(name, header.getLinkName()), InputStream.nullInputStream());
            } else if (header.isLink()) {
                deliverHardLink(originals, parent + "/" + trimSlash(header.getLinkName()), name, mode, sink);
            } else if (header.isFile()) {
                take(sink, TransferEntry.file(name, header.getSize(), mode), CloseShieldInputStream.wrap(tar));
            }
        }
    }

    private static void deliverHardLink(Originals originals, String original, String name, int mode, FileTransferSandbox.Sink sink) {
        boolean[] delivered = {false};
        originals.copyOut(original, (entry, content) -> {
            if (!delivered[0] && entry.type() == TransferEntry.Type.FILE) {
                delivered[0] = true;
                sink.accept(TransferEntry.file(name, entry.size(), mode), content);
            }
        });
    }

    private static void take(FileTransferSandbox.Sink sink, TransferEntry entry, InputStream content) {
        try {
            sink.accept(entry, content);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not take '" + entry.path() + "': " + e.getMessage(), e);
        }
    }

    /** {@code dir/} and {@code ./dir} as {@code dir}. */
    private static String trimSlash(String name) {
        String trimmed = name;
        while (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        while (trimmed.startsWith("./")) {
            trimmed = trimmed.substring(2);
        }
        return trimmed;
    }
}
