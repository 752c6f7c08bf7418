package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.store.api.SessionRecord;

import java.util.Optional;

/**
 * A validated open: the spec, its plan with every default applied, and the session's record as it
 * was before this open registered it.
 */
record OpenRequest(SessionSpec spec, SessionPlan plan, Optional<SessionRecord> existing) {

    String sessionId() {
        return spec.sessionId();
    }
}
