package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.core.egress.EgressEvent;
import io.sandboxfactory.core.egress.EgressEvents;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The egress proxy's decisions in the sessions' journals: every denied connection, and an allowed
 * one the first time this process lets the session reach that host and port. A package install
 * opens hundreds of connections to the same registry; journaling each would push the session's
 * commands out of its bounded journal.
 */
public final class EgressJournal implements EgressEvents {

    /** Beyond this many remembered host and port pairs per session, the memory starts again (an allowed host may then show twice). */
    static final int REMEMBERED = 1024;

    private final CommandJournal journal;
    private final Map<String, Set<String>> allowedBySession = new ConcurrentHashMap<>();

    public EgressJournal(CommandJournal journal) {
        this.journal = Objects.requireNonNull(journal, "journal");
    }

    @Override
    public void record(EgressEvent event) {
        if (event.allowed()) {
            Set<String> seen = allowedBySession.computeIfAbsent(event.sessionId(), id -> ConcurrentHashMap.newKeySet());
            if (seen.size() >= REMEMBERED) {
                seen.clear();
            }
            if (!seen.add(event.host().toLowerCase(java.util.Locale.ROOT) + ":" + event.port())) {
                return;
            }
        }
        journal.recordEgress(event);
    }
}
