package io.sandboxfactory.cli.session;

import io.sandboxfactory.cli.BadInputException;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.store.SessionRecord;

/**
 * Reopens a session another process opened, from its record in the session store: each CLI
 * invocation is a new JVM, so {@code exec}, {@code status} and {@code retire} work through the store.
 */
public final class StoredSessions {

    private StoredSessions() {
    }

    public static SessionRecord record(SandboxFactory factory, String sessionId) {
        SessionSpec.requireValidSessionId(sessionId);
        return factory.sessionStore().find(sessionId).orElseThrow(() -> new BadInputException(
                "Session '" + sessionId + "' is not known in " + factory.stateDirectory() + "; open it first with 'factory open'."));
    }

    /** The session as a lazy handle: nothing starts until a command runs. */
    public static SessionHandle resume(SandboxFactory factory, String sessionId) {
        return resume(factory, record(factory, sessionId));
    }

    /** The session of {@code record}, already read from the store, as a lazy handle. */
    public static SessionHandle resume(SandboxFactory factory, SessionRecord record) {
        requireSameProvider(factory, record);
        SessionSpec.Builder spec = SessionSpec.resume(record.definition());
        return factory.openSession(spec.build());
    }

    /** Refuses to work on a session another provider runs: this factory would not find its sandbox. */
    public static void requireSameProvider(SandboxFactory factory, SessionRecord record) {
        record.definition().provider().filter(p -> !p.equals(factory.providerName())).ifPresent(p -> {
            throw new BadInputException("Session '" + record.sessionId() + "' was opened with provider '" + p
                    + "' but this invocation uses '" + factory.providerName() + "'; pass --provider " + p + ".");
        });
    }
}
