package io.sandboxfactory.cli.session;

import io.sandboxfactory.cli.BadInputException;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.session.SessionSpecBuilder;
import io.sandboxfactory.store.api.SessionRecord;

/**
 * Reopens a session another process opened, from its record in the session store: each CLI
 * invocation is a new JVM, so {@code exec}, {@code status} and {@code retire} work through the store.
 */
public final class StoredSessions {

    /** Whom an error tells what to do: a person at the CLI runs commands, an agent over MCP calls tools. */
    public enum Audience {
        CLI("open it first with 'factory open'", "this invocation uses '%s'; pass --provider %s."),
        MCP("open it first with the session_open tool", "this MCP server uses '%s'; it is served by an MCP server started with --provider %s.");

        private final String openFirst;
        private final String otherProvider;

        Audience(String openFirst, String otherProvider) {
            this.openFirst = openFirst;
            this.otherProvider = otherProvider;
        }
    }

    private StoredSessions() {
    }

    public static SessionRecord record(SandboxFactory factory, String sessionId) {
        return record(factory, sessionId, Audience.CLI);
    }

    public static SessionRecord record(SandboxFactory factory, String sessionId, Audience audience) {
        SessionSpec.requireValidSessionId(sessionId);
        return factory.sessionStore().find(sessionId).orElseThrow(() -> new BadInputException(
                "Session '" + sessionId + "' is not known in " + factory.stateDirectory() + "; " + audience.openFirst + "."));
    }

    /** The session as a lazy handle: nothing starts until a command runs. */
    public static SessionHandle resume(SandboxFactory factory, String sessionId) {
        return resume(factory, sessionId, Audience.CLI);
    }

    public static SessionHandle resume(SandboxFactory factory, String sessionId, Audience audience) {
        return resume(factory, record(factory, sessionId, audience), audience);
    }

    /** The session of {@code record}, already read from the store, as a lazy handle. */
    public static SessionHandle resume(SandboxFactory factory, SessionRecord record) {
        return resume(factory, record, Audience.CLI);
    }

    public static SessionHandle resume(SandboxFactory factory, SessionRecord record, Audience audience) {
        requireSameProvider(factory, record, audience);
        SessionSpecBuilder spec = SessionSpec.resume(record.definition());
        return factory.openSession(spec.build());
    }

    /** Refuses to work on a session another provider runs: this factory would not find its sandbox. */
    public static void requireSameProvider(SandboxFactory factory, SessionRecord record) {
        requireSameProvider(factory, record, Audience.CLI);
    }

    public static void requireSameProvider(SandboxFactory factory, SessionRecord record, Audience audience) {
        record.definition().provider().filter(p -> !p.equals(factory.providerName())).ifPresent(p -> {
            throw new BadInputException("Session '" + record.sessionId() + "' was opened with provider '" + p + "' but "
                    + audience.otherProvider.formatted(factory.providerName(), p));
        });
    }
}
