package io.sandboxfactory.core.internal.session;

import jakarta.inject.Inject;

import java.time.Instant;
import java.util.Objects;

/**
 * Pipeline step: record. Persists the physical sandbox id and the session root in the store, which
 * marks the session as handed to the user (a sweep leaves it alone from now on). A failed setup is
 * recorded too: the sandbox stays usable after it.
 */
final class RecordStart {

    private final SessionServices services;

    @Inject
    RecordStart(SessionServices services) {
        this.services = Objects.requireNonNull(services, "services");
    }

    void record(SessionStart start, PreparedWorkspace workspace) {
        services.store().recordStart(start.id(), start.sandboxId(), workspace.seen().root(), Instant.now(), workspace.fence());
    }
}
