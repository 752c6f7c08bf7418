package io.sandboxfactory.core.files;

import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxStatus;
import io.sandboxfactory.core.internal.session.SessionMemo;
import io.sandboxfactory.core.session.SessionHandle;

import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * A passive, read-only view of a session's files (its checkout) for readers that must never
 * provision anything: a dashboard, a file tree in a UI, an agent peeking at a session it does
 * not own.
 *
 * <p>Guarantees: it looks the session up among those this process holds (never opens one) and reads
 * only while the session's sandbox is {@link SandboxStatus#RUNNING} in this process with its
 * workspace resolved; otherwise the session reads as not materialized: {@link #list} answers an
 * empty list, {@link #exists} false, and the other reads throw {@link NotMaterializedException}. It
 * never starts, creates, stops or changes a sandbox and never runs a command in one that is not
 * running (the status is checked before each command; a sandbox stopped in between reads as not
 * materialized). Paths are checked lexically even then. Thread-safe.
 */
public final class PeekFilesystem implements FilesystemView {

    private final Function<String, Optional<Held>> held;
    private final String sessionId;
    private final Duration timeout;

    /** @param sessions the sessions this process holds, looked up without opening one ({@code SandboxFactory::session}) */
    public PeekFilesystem(Function<String, Optional<SessionHandle>> sessions, String sessionId) {
        this(id -> sessions.apply(id).map(handle -> new Held(handle.sandbox(), handle.filesRoot())), sessionId,
                SandboxFilesystem.DEFAULT_TIMEOUT);
    }

    /** Over a bare memo, for tests of this package. */
    PeekFilesystem(SessionMemo memo, String sessionId) {
        this(id -> memo.peek(id).map(entry -> new Held(entry.sandbox(), entry.filesRoot())), sessionId,
                SandboxFilesystem.DEFAULT_TIMEOUT);
    }

    private PeekFilesystem(Function<String, Optional<Held>> held, String sessionId, Duration timeout) {
        this.held = Objects.requireNonNull(held, "held");
        this.sessionId = Objects.requireNonNull(sessionId, "sessionId");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /** A held session's sandbox and where its files are rooted, once resolved. */
    private record Held(MastraSandbox<?> sandbox, Optional<String> filesRoot) {
    }

    public String sessionId() {
        return sessionId;
    }

    /** Whether the session's files can be read right now without starting anything. */
    public boolean materialized() {
        return live("").isPresent();
    }

    @Override
    public byte[] readFile(String path) {
        return require(path).readFile(path);
    }

    @Override
    public String readText(String path) {
        return require(path).readText(path);
    }

    @Override
    public void readFile(String path, OutputStream out) {
        require(path).readFile(path, out);
    }

    @Override
    public List<FileInfo> list(String path) {
        Optional<SandboxFilesystem> files = live(path);
        if (files.isEmpty()) {
            return List.of();
        }
        try {
            return files.get().list(path);
        } catch (NotMaterializedException stoppedMeanwhile) {
            return List.of();
        }
    }

    @Override
    public FileInfo stat(String path) {
        return require(path).stat(path);
    }

    @Override
    public boolean exists(String path) {
        Optional<SandboxFilesystem> files = live(path);
        if (files.isEmpty()) {
            return false;
        }
        try {
            return files.get().exists(path);
        } catch (NotMaterializedException stoppedMeanwhile) {
            return false;
        }
    }

    @Override
    public String realpath(String path) {
        return require(path).realpath(path);
    }

    private SandboxFilesystem require(String path) {
        return live(path).orElseThrow(() -> new NotMaterializedException(sessionId, FileCommands.display(path)));
    }

    /** The files when the session is running here with its checkout known; checks {@code path} lexically first. */
    private Optional<SandboxFilesystem> live(String path) {
        SandboxRoot.normalize(path, "of session '" + sessionId + "'");
        Optional<Held> session = held.apply(sessionId);
        if (session.isEmpty()) {
            return Optional.empty();
        }
        MastraSandbox<?> sandbox = session.get().sandbox();
        if (sandbox.status() != SandboxStatus.RUNNING) {
            return Optional.empty();
        }
        Optional<String> checkout = session.get().filesRoot();
        if (checkout.isEmpty()) {
            return Optional.empty();
        }
        RunningOnly guarded = new RunningOnly(sandbox, FileCommands.display(path));
        return Optional.of(new SandboxFilesystem(guarded, guarded.fastPath(), checkout.get(), ChunkEncoder.DEFAULT_CHUNK_BYTES, timeout));
    }

    @Override
    public String toString() {
        return "PeekFilesystem[session=" + sessionId + "]";
    }
}
