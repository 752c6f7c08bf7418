package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.core.egress.EgressEvent;
import io.sandboxfactory.core.store.SqliteSessionStore;
import io.sandboxfactory.store.api.JournalEntry;
import io.sandboxfactory.store.api.SessionDefinition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Every denied connection is journaled; an allowed one once per session, host and port, so a busy install does not flood the journal. */
class EgressJournalTest {

    @TempDir
    Path tmp;

    @Test
    void deniedAlwaysAllowedOncePerHostAndPort() {
        try (SqliteSessionStore store = SqliteSessionStore.openIn(tmp)) {
            for (String id : List.of("s1", "s2")) {
                store.register(SessionDefinition.builder(id, "owner/repo", "b").provider("local").build());
            }
            EgressJournal journal = new EgressJournal(new CommandJournal(store, "cli", 100, Clock.systemUTC()));
            Instant at = Instant.parse("2026-01-01T00:00:00Z");
            for (int i = 0; i < 3; i++) {
                journal.record(new EgressEvent("s1", at, "CONNECT", "registry.test", 443, true, "allow registry.test"));
                journal.record(new EgressEvent("s1", at, "CONNECT", "evil.test", 443, false, "no allow rule matches"));
            }
            journal.record(new EgressEvent("s1", at, "CONNECT", "REGISTRY.test", 8443, true, "allow registry.test"));
            journal.record(new EgressEvent("s2", at, "CONNECT", "registry.test", 443, true, "allow registry.test"));

            assertThat(store.journal("s1", 10)).extracting(JournalEntry::origin).containsOnly("egress");
            assertThat(store.journal("s1", 10)).extracting(JournalEntry::command, JournalEntry::exitCode).containsExactly(
                    org.assertj.core.groups.Tuple.tuple("allowed CONNECT registry.test:443 (allow registry.test)", 0),
                    org.assertj.core.groups.Tuple.tuple("denied CONNECT evil.test:443 (no allow rule matches)", 1),
                    org.assertj.core.groups.Tuple.tuple("denied CONNECT evil.test:443 (no allow rule matches)", 1),
                    org.assertj.core.groups.Tuple.tuple("denied CONNECT evil.test:443 (no allow rule matches)", 1),
                    org.assertj.core.groups.Tuple.tuple("allowed CONNECT REGISTRY.test:8443 (allow registry.test)", 0));
            assertThat(store.journal("s2", 10)).hasSize(1);
        }
    }
}
