package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.SandboxStatus;
import io.sandboxfactory.core.internal.store.SessionLeases;
import jakarta.inject.Inject;
import jakarta.inject.Provider;

import java.util.Objects;

/**
 * Starts a session's sandbox instance only while no retirement has overtaken it. The provider
 * makes the physical sandbox before any start hook runs, so the session hook's own generation
 * check comes too late to stop a start that a retirement beat: the retirement (here or in another
 * process) ended the sandbox, and the start would make it again for a retired session. Holding the
 * session's lease, this checks the generation the instance was made in before starting it; a
 * retirement bumps the generation before it takes the lease, so either it waits for this start
 * and ends what it made, or this start sees the new generation and makes nothing.
 *
 * <p>A start that fails because of the template its instance was made from (a lazy open's first
 * command, say) is handed to the fallback, which replaces the instance with one made without it.
 */
final class GuardedStart {

    private final TakeLease lease;
    private final AcquireSandbox acquire;
    /** Looked up when needed: the fallback opens sessions through the pipeline, which hands out handles that start here. */
    private final Provider<SessionTemplates> templates;

    @Inject
    GuardedStart(TakeLease lease, AcquireSandbox acquire, Provider<SessionTemplates> templates) {
        this.lease = Objects.requireNonNull(lease, "lease");
        this.acquire = Objects.requireNonNull(acquire, "acquire");
        this.templates = Objects.requireNonNull(templates, "templates");
    }

    /**
     * Joins or makes the start of {@code entry}'s sandbox; takes the lease only when the start may
     * make or reach the physical sandbox (a running one needs nothing, a destroyed instance refuses
     * to start by itself). Returns the entry that is started: {@code entry}, or the one made without
     * a template in its place.
     */
    SessionEntry start(SessionEntry entry) {
        try {
            startOnce(entry);
            return entry;
        } catch (RuntimeException failure) {
            return templates.get().withoutTemplate(entry, failure).orElseThrow(() -> failure);
        }
    }

    private void startOnce(SessionEntry entry) {
        SandboxStatus status = entry.sandbox().status();
        if (status == SandboxStatus.RUNNING || status == SandboxStatus.DESTROYED) {
            AcquireSandbox.start(entry.sandbox());
            return;
        }
        try (SessionLeases.Lease held = lease.take(entry.sessionId())) {
            acquire.acquire(entry);
        }
    }
}
