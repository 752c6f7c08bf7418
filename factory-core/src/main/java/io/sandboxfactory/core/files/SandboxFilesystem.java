package io.sandboxfactory.core.files;

import io.sandboxfactory.api.ExecutableSandbox;
import io.sandboxfactory.api.files.FileOperationsSandbox;
import io.sandboxfactory.api.files.FileTransferSandbox;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.core.session.SessionHandle;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A session's files, read and written through its sandbox and confined to a root inside it (the
 * session's checkout or working directory).
 *
 * <p>Guarantees:
 * <ul>
 *   <li>Confinement: every path is relative to the root. An absolute path or a {@code ..} component
 *       is refused before anything runs; a path whose resolution inside the sandbox (every symbolic
 *       link followed, with {@code realpath}/{@code readlink} on the deepest existing ancestor) leaves
 *       the root is refused by the same command that would have acted on it, and the operation then
 *       works on the resolved path. Refusals are {@link io.sandboxfactory.api.files.PathOutsideRootException}
 *       naming the path; nothing outside the root is read or written. {@link #delete} and {@link
 *       #move} act on the entry itself: a symbolic link is removed or renamed, never followed. (A
 *       process inside the sandbox that swaps a directory for a link between the check and the
 *       operation is not defended against: the sandbox is the isolation boundary.)</li>
 *   <li>Works with any {@link ExecutableSandbox}: content travels as base64 through plain
 *       commands, binary-safe, in chunks, so memory stays bounded whatever the file size. When the
 *       sandbox implements {@link FileTransferSandbox} content travels through it instead, unless
 *       {@link TransferMode#GENERIC} is asked for; metadata operations use commands, unless the
 *       sandbox is a {@link FileOperationsSandbox}, which performs them all itself.</li>
 *   <li>Writes replace the file atomically (a temporary file beside it, then a rename), keep the
 *       replaced file's permissions and create missing parents. Appends are not atomic.</li>
 *   <li>Every operation starts the sandbox when it is not running, like {@code executeCommand}; use
 *       {@link PeekFilesystem} to read without ever starting one.</li>
 * </ul>
 * Thread-safe; operations on different paths may run in parallel.
 */
public final class SandboxFilesystem implements FilesystemView {

    /** The default limit of one command of a file operation. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(10);

    private final SandboxRoot root;
    private final FileOperations operations;
    private final ContentTransfer transfer;
    private final boolean fast;
    private final HostCopies copies;

    SandboxFilesystem(ExecutableSandbox sandbox, Optional<FileTransferSandbox> fastPath, String root, int chunkBytes, Duration timeout) {
        this.root = new SandboxRoot(root);
        this.fast = fastPath.isPresent();
        if (fastPath.isPresent() && fastPath.get() instanceof FileOperationsSandbox provider) {
            ProviderFiles files = new ProviderFiles(provider, this.root, sandbox.id());
            this.operations = files;
            this.transfer = files;
        } else {
            FileCommands commands = new FileCommands(new SandboxShell(sandbox, this.root, timeout));
            GenericTransfer generic = new GenericTransfer(commands, chunkBytes);
            this.operations = generic;
            this.transfer = fastPath.<ContentTransfer>map(f -> new FastTransfer(commands, f)).orElse(generic);
        }
        this.copies = new HostCopies(this.root, operations, transfer);
    }

    /** The filesystem of {@code sandbox} under {@code root} (absolute, inside the sandbox), fast path when offered. */
    public static SandboxFilesystem of(ExecutableSandbox sandbox, String root) {
        return builder(sandbox, root).build();
    }

    public static SandboxFilesystemBuilder builder(ExecutableSandbox sandbox, String root) {
        return new SandboxFilesystemBuilder(sandbox, root);
    }

    /**
     * The files of an open session, rooted at its checkout (an environment: at its workspace root,
     * every checkout under it as {@code <dir>/}). Waits for (or makes) the session's start, since the
     * root is only known once it ran.
     */
    public static SandboxFilesystem forSession(SessionHandle session) {
        session.awaitStarted();
        String root = session.filesRoot().orElseThrow(() -> new IllegalStateException("Session '" + session.sessionId()
                + "' started but its checkout is unknown."));
        return of(session.sandbox(), root);
    }

    /**
     * Checks {@code path} the way every operation does before anything runs (relative, no {@code
     * ..}, no NUL) and returns its normal form; lets a caller refuse bad input before it starts a
     * sandbox. {@code root} only words the refusal.
     */
    public static String requireRelative(String path, String root) {
        return SandboxRoot.normalize(path, root);
    }

    /** The root, as given (absolute, inside the sandbox). */
    public String root() {
        return root.path();
    }

    /** Whether content moves through the sandbox's {@link FileTransferSandbox}. */
    public boolean usesFastPath() {
        return fast;
    }

    // ---- reading ------------------------------------------------------------------------------

    @Override
    public byte[] readFile(String path) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        readFile(path, out);
        return out.toByteArray();
    }

    @Override
    public String readText(String path) {
        return new String(readFile(path), StandardCharsets.UTF_8);
    }

    @Override
    public void readFile(String path, OutputStream out) {
        Objects.requireNonNull(out, "out");
        transfer.read(root.normalize(path), out);
    }

    @Override
    public List<FileInfo> list(String path) {
        return operations.list(root.normalize(path));
    }

    @Override
    public FileInfo stat(String path) {
        return operations.stat(root.normalize(path));
    }

    @Override
    public boolean exists(String path) {
        return !transfer.resolve(root.normalize(path)).missing();
    }

    @Override
    public String realpath(String path) {
        return transfer.resolve(root.normalize(path)).relative();
    }

    // ---- writing ------------------------------------------------------------------------------

    /** Replaces (or creates) the file at {@code path} with {@code content}. */
    public void writeFile(String path, byte[] content) {
        transfer.write(root.normalize(path), new ByteArrayInputStream(content), content.length, null);
    }

    /** Replaces (or creates) the file at {@code path} with {@code text} encoded as UTF-8. */
    public void writeText(String path, String text) {
        writeFile(path, text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Replaces (or creates) the file at {@code path} with everything {@code content} holds (not
     * closed), with bounded memory whatever its length. An {@link IOException} of {@code content}
     * is rethrown as {@link UncheckedIOException}; the target is then left as it was.
     */
    public void writeFile(String path, InputStream content) {
        Objects.requireNonNull(content, "content");
        transfer.write(root.normalize(path), content, -1, null);
    }

    /** Appends {@code content} to the file at {@code path}, creating it (and its parents) when missing. */
    public void appendFile(String path, byte[] content) {
        appendFile(path, new ByteArrayInputStream(content));
    }

    /** Appends {@code text} encoded as UTF-8. */
    public void appendText(String path, String text) {
        appendFile(path, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Appends everything {@code content} holds, chunk by chunk (not atomic: a failure may leave part of it appended). */
    public void appendFile(String path, InputStream content) {
        Objects.requireNonNull(content, "content");
        operations.append(root.normalize(path), content);
    }

    /** Creates the directory at {@code path} and its missing parents; fine when it exists. */
    public void mkdirs(String path) {
        operations.mkdirs(root.normalize(path));
    }

    /** Deletes the file, symbolic link or empty directory at {@code path}. */
    public void delete(String path) {
        delete(path, false);
    }

    /**
     * Deletes what is at {@code path}; a directory with entries only when {@code recursive}. A
     * symbolic link is deleted itself, never what it points to. The root cannot be deleted.
     */
    public void delete(String path, boolean recursive) {
        operations.delete(entry(path, "delete"), recursive);
    }

    /**
     * Renames the entry at {@code from} to {@code to}, replacing a file there and creating missing
     * parents; {@code to} must not be a directory. The root cannot be moved.
     */
    public void move(String from, String to) {
        operations.move(entry(from, "move"), entry(to, "move onto"));
    }

    private String entry(String path, String verb) {
        String normalized = root.normalize(path);
        if (normalized.isEmpty()) {
            throw new InvalidInputException(StandardErrorCode.INVALID_PATH, "Path '" + path + "' is the root " + root + "; cannot " + verb + " the root itself.");
        }
        return normalized;
    }

    // ---- copies between the host and the sandbox ----------------------------------------------

    /** {@link #copyIn(Path, String, TransferProgress)} without progress. */
    public TransferSummary copyIn(Path hostSource, String target) {
        return copyIn(hostSource, target, TransferProgress.NONE);
    }

    /**
     * Copies a host file, symbolic link or directory tree into the sandbox, as {@code docker cp}
     * does: into {@code target} when it is a directory (keeping the source's name), else to {@code
     * target} itself (creating its parents). Symbolic links are copied as links. A directory never
     * replaces a file. Files are replaced in place on the fast path, atomically on the generic one.
     */
    public TransferSummary copyIn(Path hostSource, String target, TransferProgress progress) {
        return copies.copyIn(hostSource, target, progress);
    }

    /** {@link #copyOut(String, Path, TransferProgress)} without progress. */
    public TransferSummary copyOut(String source, Path hostTarget) {
        return copyOut(source, hostTarget, TransferProgress.NONE);
    }

    /**
     * Copies a file or directory tree out of the sandbox, as {@code docker cp} does: into {@code
     * hostTarget} when it is a directory (keeping the source's name), else to {@code hostTarget}
     * itself (creating its parents). Symbolic links inside the tree are copied as links; nothing is
     * ever written outside the destination, even through links the copy itself wrote.
     */
    public TransferSummary copyOut(String source, Path hostTarget, TransferProgress progress) {
        return copies.copyOut(source, hostTarget, progress);
    }

    @Override
    public String toString() {
        return "SandboxFilesystem[root=" + root + ", " + (fast ? "fast path" : "generic path") + "]";
    }
}
