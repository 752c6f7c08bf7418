package io.sandboxfactory.core.files;

/**
 * Told how far a copy between the host and a sandbox got. Called on the copying thread, often
 * (every few kilobytes): an implementation throttles its own output.
 */
@FunctionalInterface
public interface TransferProgress {

    TransferProgress NONE = (bytes, total) -> { };

    /**
     * @param bytes file content bytes moved so far
     * @param totalBytes bytes the copy will move, or -1 when unknown (copies out of a sandbox)
     */
    void onProgress(long bytes, long totalBytes);
}
