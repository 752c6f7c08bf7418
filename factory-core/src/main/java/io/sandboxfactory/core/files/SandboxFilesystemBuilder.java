package io.sandboxfactory.core.files;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.ExecutableSandbox;
import io.sandboxfactory.api.files.FileTransferSandbox;
import io.sandboxfactory.api.InvalidInputException;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/** Options of a {@link SandboxFilesystem}: {@link SandboxFilesystem#builder}. Not thread-safe. */
public final class SandboxFilesystemBuilder {
    private final ExecutableSandbox sandbox;
    private final String root;
    private TransferMode mode = TransferMode.AUTO;
    private int chunkBytes = ChunkEncoder.DEFAULT_CHUNK_BYTES;
    private Duration timeout = SandboxFilesystem.DEFAULT_TIMEOUT;

    SandboxFilesystemBuilder(ExecutableSandbox sandbox, String root) {
        this.sandbox = Objects.requireNonNull(sandbox, "sandbox");
        this.root = Objects.requireNonNull(root, "root");
    }

    /** {@link TransferMode#GENERIC} forces content through plain commands (for tests and the TCK). */
    public SandboxFilesystemBuilder transferMode(TransferMode mode) {
        this.mode = Objects.requireNonNull(mode, "mode");
        return this;
    }

    /**
     * Content bytes per command on the generic write path; between 1 and the default (about 720
     * KiB, what the environment of one command holds safely).
     */
    public SandboxFilesystemBuilder chunkBytes(int chunkBytes) {
        if (chunkBytes < 1 || chunkBytes > ChunkEncoder.DEFAULT_CHUNK_BYTES) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Chunk size " + chunkBytes + " is invalid; it must be between 1 and "
                    + ChunkEncoder.DEFAULT_CHUNK_BYTES + " bytes.");
        }
        this.chunkBytes = chunkBytes;
        return this;
    }

    /** The limit of each command a file operation runs; must be positive. */
    public SandboxFilesystemBuilder timeout(Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "File operation timeout " + timeout + " is invalid; it must be positive.");
        }
        this.timeout = timeout;
        return this;
    }

    public SandboxFilesystem build() {
        Optional<FileTransferSandbox> fastPath = mode == TransferMode.AUTO && sandbox instanceof FileTransferSandbox f
                ? Optional.of(f) : Optional.empty();
        return new SandboxFilesystem(sandbox, fastPath, root, chunkBytes, timeout);
    }
}
