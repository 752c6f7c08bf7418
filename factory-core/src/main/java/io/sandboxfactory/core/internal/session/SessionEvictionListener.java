package io.sandboxfactory.core.internal.session;

import java.util.Optional;

/** Told when a session is evicted from a {@link SessionMemo}, e.g. to forget the session's failed setup. */
@FunctionalInterface
public interface SessionEvictionListener {

    /**
     * @param sessionId the evicted session
     * @param evicted the entry that was dropped; empty when this process held none
     */
    void onEvict(String sessionId, Optional<SessionEntry> evicted);
}
