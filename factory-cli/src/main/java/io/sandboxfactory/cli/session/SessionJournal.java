package io.sandboxfactory.cli.session;

import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.store.api.JournalEntry;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A session's command journal as {@code factory log} and the session_log tool give it. */
public final class SessionJournal {

    /** Entries shown when no number is given. */
    public static final int DEFAULT_ENTRIES = 20;

    private SessionJournal() {
    }

    /** The newest {@code limit} entries of a session the store knows, oldest first. */
    public static List<JournalEntry> journal(SandboxFactory factory, String sessionId, int limit) {
        return journal(factory, sessionId, limit, StoredSessions.Audience.CLI);
    }

    public static List<JournalEntry> journal(SandboxFactory factory, String sessionId, int limit, StoredSessions.Audience audience) {
        StoredSessions.record(factory, sessionId, audience);
        return factory.sessionStore().journal(sessionId, limit);
    }

    /** The document {@code --json} and the session_log tool give. */
    public static Map<String, Object> document(String sessionId, List<JournalEntry> journal) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("session", sessionId);
        doc.put("entries", journal.stream().map(SessionJournal::json).toList());
        return doc;
    }

    private static Map<String, Object> json(JournalEntry entry) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("startedAt", entry.startedAt().toString());
        doc.put("durationMillis", entry.duration().toMillis());
        doc.put("origin", entry.origin());
        doc.put("command", entry.command());
        doc.put("exitCode", entry.exitCode());
        doc.put("timedOut", entry.timedOut());
        doc.put("stdoutTail", entry.stdoutTail());
        doc.put("stderrTail", entry.stderrTail());
        return doc;
    }
}
