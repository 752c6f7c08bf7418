package io.sandboxfactory.core.files;

/** How a {@link SandboxFilesystem} moves file content. */
public enum TransferMode {
    /** Through the sandbox's {@code FileTransferSandbox} when it has one, else {@link #GENERIC}. */
    AUTO,
    /** Through plain commands only (base64 over {@code executeCommand}), whatever the sandbox offers. */
    GENERIC
}
