package io.sandboxfactory.core.files;

import io.sandboxfactory.api.files.TransferEntry;

import java.io.IOException;
import java.io.OutputStream;

/** Where a tree copied out of a sandbox goes, entry by entry, each directory before its contents. */
interface TreeSink {

    /** Writes a file's content to the stream it is given. */
    @FunctionalInterface
    interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    void directory(TransferEntry entry) throws IOException;

    void symlink(TransferEntry entry) throws IOException;

    void file(TransferEntry entry, Content content) throws IOException;
}
