package io.sandboxfactory.core.files;

import java.io.InputStream;
import java.util.List;

/**
 * The metadata operations of a {@link SandboxFilesystem} and its appends: over commands ({@link
 * GenericTransfer}) or a provider that performs them itself ({@link ProviderFiles}). Paths are
 * normalized relative paths, confined to the root by the implementation.
 */
interface FileOperations {

    List<FileInfo> list(String path);

    FileInfo stat(String path);

    /** Creates the directory at {@code path} and its parents; fine when it exists. */
    Resolved mkdirs(String path);

    void delete(String path, boolean recursive);

    void move(String from, String to);

    /** Appends everything {@code content} holds, creating the file and its parents. */
    void append(String path, InputStream content);
}
