package io.sandboxfactory.core.files;

import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxStatus;
import io.sandboxfactory.core.session.SessionEntry;
import io.sandboxfactory.core.session.SessionMemo;

import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A passive, read-only view of a session's files (its checkout) for readers that must never
 * provision anything: a dashboard, a file tree in a UI, an agent peeking at a session it does
 * not own.
 *
 * <p>Guarantees: it looks the session up with {@link SessionMemo#peek} (never constructs an
 * entry) and reads only while the session's sandbox is {@link SandboxStatus#RUNNING} in this process
 * with its workspace resolved; otherwise the session reads as not materialized: {@link #list}
 * answers an empty list, {@link #exists} false, and the other reads throw {@link
 * NotMaterializedException}. It never starts, creates, stops or changes a sandbox and never runs a
 * command in one that is not running (the status is checked before each command; a sandbox stopped
 * in between reads as not materialized). Paths are checked lexically even then. Thread-safe.
 */
public final class PeekFilesystem implements FilesystemView {

    private final SessionMemo memo;
    private final String sessionId;
    private final Duration timeout;

    public PeekFilesystem(SessionMemo memo, String sessionId) {
        this(memo, sessionId, SandboxFilesystem.DEFAULT_TIMEOUT);
    }

    public PeekFilesystem(SessionMemo memo, String sessionId, Duration timeout) {
        this.memo = Objects.requireNonNull(memo, "memo");
        this.sessionId = Objects.requireNonNull(sessionId, "sessionId");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
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
        Optional<SessionEntry> entry = memo.peek(sessionId);
        if (entry.isEmpty()) {
            return Optional.empty();
        }
        MastraSandbox<?> sandbox = entry.get().sandbox();
        if (sandbox.status() != SandboxStatus.RUNNING) {
            return Optional.empty();
        }
        Optional<String> checkout = entry.get().workdir()
                .flatMap(root -> entry.get().plan().map(plan -> plan.filesRoot(plan.layout(root))));
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
