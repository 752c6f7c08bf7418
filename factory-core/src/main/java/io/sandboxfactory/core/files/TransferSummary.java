package io.sandboxfactory.core.files;

/**
 * What a copy between the host and a sandbox moved.
 *
 * @param files regular files written
 * @param directories directories created or merged into
 * @param symlinks symbolic links written
 * @param bytes file content bytes moved
 */
public record TransferSummary(long files, long directories, long symlinks, long bytes) {
}
