package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.store.api.SessionRecord;
import jakarta.inject.Inject;

import java.util.Objects;
import java.util.Optional;

/**
 * Pipeline step: validate. Applies the defaults to the spec (a reopen keeps the base branch a
 * start resolved and stored, and the setup secrets' names an earlier open gave when it names none), refuses to reopen a session on another repository, to open one whose
 * setup secrets are unset on the host or with an egress mode the provider cannot enforce, and
 * registers the session's definition (and its own allowed hosts) in the store.
 */
final class ValidateSpec {

    private final SessionServices services;
    private final SessionProvider provider;
    private final ApplyEgress egress;

    @Inject
    ValidateSpec(SessionServices services, SessionProvider provider, ApplyEgress egress) {
        this.services = Objects.requireNonNull(services, "services");
        this.provider = Objects.requireNonNull(provider, "provider");
        this.egress = Objects.requireNonNull(egress, "egress");
    }

    OpenRequest validate(SessionSpec spec) {
        Objects.requireNonNull(spec, "spec");
        Optional<SessionRecord> existing = services.store().find(spec.sessionId());
        SessionPlan plan = SessionPlan.of(spec, services.defaults(), existing.flatMap(record -> record.definition().setupSecrets()))
                .withStoredBase(existing.flatMap(record -> record.definition().baseBranch()));
        existing.ifPresent(record -> requireSameRepository(record, plan));
        if (existing.isEmpty() || spec.setupSecrets().isPresent()) {
            // A session reached again with the configured names (exec in another shell) fails only when its setup must run again.
            plan.setupSecrets().requireComplete();
        }
        egress.admit(spec);
        services.store().register(plan.definition(Optional.of(provider.name())));
        egress.remember(spec);
        return new OpenRequest(spec, plan, existing);
    }

    private static void requireSameRepository(SessionRecord record, SessionPlan plan) {
        String stored = record.definition().repository();
        String requested = plan.repositories().get(0).repository();
        if (!stored.equals(requested)) {
            throw new InvalidInputException(StandardErrorCode.INVALID_REPOSITORY, "Session '" + record.sessionId() + "' works on repository '" + stored
                    + "', so it cannot be reopened on '" + requested + "'; retire it with DESTROY first, or use another session id.");
        }
    }
}
