package io.sandboxfactory.cli.session;

import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.cli.output.PhaseReporter;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.files.FileInfo;
import io.sandboxfactory.core.retire.RetireResult;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.store.api.SessionRecord;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The JSON documents {@code --json} prints for sessions. */
public final class SessionJson {

    private SessionJson() {
    }

    public static Map<String, Object> describe(SandboxFactory factory, SessionHandle handle, PhaseReporter reporter, CommandResult result) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("session", handle.sessionId());
        doc.put("provider", factory.providerName());
        doc.put("sandboxId", handle.sandbox().sandboxId().orElse(null));
        doc.put("status", SessionStates.of(factory, handle).toString());
        doc.put("isolation", factory.factorySandbox().isolation());
        doc.put("workdir", handle.workdir().orElse(null));
        doc.put("checkout", handle.checkout().orElse(null));
        Optional<SessionRecord> record = factory.sessionStore().find(handle.sessionId());
        doc.put("branch", record.map(r -> r.definition().branch()).orElse(null));
        doc.put("template", handle.template().orElse(null));
        doc.put("phases", reporter.phases().stream().map(PhaseReporter.Phase::toJson).toList());
        if (result != null) {
            doc.put("exitCode", result.exitCode());
            doc.put("timedOut", result.timedOut());
            doc.put("durationMillis", result.executionTime().toMillis());
            doc.put("stdout", result.stdout());
            doc.put("stderr", result.stderr());
            doc.put("stdoutTruncated", result.stdoutTruncated());
            doc.put("stderrTruncated", result.stderrTruncated());
        }
        return doc;
    }

    /** A stored session with its sandbox's {@code status} and {@code isolation} (see {@link SessionStates}). */
    static Map<String, Object> record(SessionRecord record, String status, String isolation) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("session", record.sessionId());
        doc.put("provider", record.definition().provider().orElse(null));
        doc.put("status", status);
        doc.put("isolation", isolation);
        doc.put("repository", record.definition().repository());
        doc.put("branch", record.definition().branch());
        doc.put("baseBranch", record.definition().baseBranch().orElse(null));
        doc.put("sandboxId", record.sandboxId().orElse(null));
        doc.put("workdir", record.workdir().orElse(null));
        doc.put("materializedAt", record.materializedAt().map(Object::toString).orElse(null));
        doc.put("createdAt", record.createdAt().toString());
        doc.put("lastUsedAt", record.lastUsedAt().toString());
        doc.put("freshness", record.freshness().orElse(null));
        doc.put("labels", record.definition().labels());
        record.definition().environment().ifPresent(env -> doc.put("repositories", env.repositories().stream().map(r -> {
            Map<String, Object> repo = new LinkedHashMap<>();
            repo.put("dir", r.dir());
            repo.put("repository", r.repository());
            repo.put("branch", record.definition().branch());
            repo.put("baseBranch", r.baseBranch().orElse(null));
            repo.put("setup", record.setupStates().getOrDefault(r.dir(), "pending"));
            return repo;
        }).toList()));
        return doc;
    }

    /** One entry as {@code --json} (and the file_list tool) shows it. */
    public static Map<String, Object> fileEntry(FileInfo entry) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("name", entry.name());
        row.put("type", entry.type().name().toLowerCase(java.util.Locale.ROOT));
        row.put("size", entry.size());
        row.put("modified", entry.modified().toString());
        row.put("permissions", String.format("%04o", entry.permissions()));
        return row;
    }

    /** A retirement's outcome as {@code factory retire --json} (and the session_retire tool) shows it. */
    public static Map<String, Object> retirement(RetireResult result) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("session", result.sessionId());
        doc.put("outcome", result.outcome().name().toLowerCase(java.util.Locale.ROOT));
        doc.put("problems", result.problems());
        return doc;
    }
}
