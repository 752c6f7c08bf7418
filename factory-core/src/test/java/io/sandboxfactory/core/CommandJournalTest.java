package io.sandboxfactory.core;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.store.api.JournalEntry;
import io.sandboxfactory.core.testing.Git;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The command journal through a real factory on the local provider with real git: setup, user
 * commands and teardown are recorded with their origin, tails and exit codes, redacted of the token,
 * bounded per session, and gone with the session.
 */
class CommandJournalTest {

    @TempDir
    Path tmp;

    @Test
    void setupCommandsAndTeardownAreJournaledWithTheirOriginAndNoToken() throws Exception {
        Path repo = Git.bareRepository(tmp.resolve("app.git"));
        String token = "tok-journal-" + UUID.randomUUID();
        try (SandboxFactory factory = SandboxFactory.builder().provider("local").environment(Map.of()).stateDirectory(tmp.resolve("state"))
                .commandOrigin("test-host").build()) {
            SessionHandle session = factory.openSession(SessionSpec.builder("j1").repository(repo.toString()).branch("b")
                    .setupCommands("echo set-up", "echo more").teardownCommands("echo bye").build());
            factory.refreshToken("j1", token);
            session.executeCommand("printf", List.of("%s\\n", "two words"), CommandOptions.builder().cwd(session.checkout().orElseThrow()).build());
            session.executeCommand("echo \"token=$GH_TOKEN\"; echo " + token + " >&2; exit 3", List.of(), CommandOptions.defaults());
            session.executeCommand("sleep 5", List.of(), CommandOptions.builder().timeout(java.time.Duration.ofMillis(300)).build());
            factory.retire("j1", RetireMode.STOP);

            List<JournalEntry> journal = factory.sessionStore().journal("j1", 100);
            assertThat(journal).extracting(JournalEntry::origin).containsExactly("setup", "test-host", "test-host", "test-host", "teardown");
            assertThat(journal.get(0).command()).isEqualTo("echo set-up\necho more");
            assertThat(journal.get(0).stdoutTail()).isEqualTo("set-up\nmore\n");
            assertThat(journal.get(1).command()).isEqualTo("printf '%s\\n' 'two words'");
            assertThat(journal.get(1).stdoutTail()).isEqualTo("two words\n");
            assertThat(journal.get(2).exitCode()).isEqualTo(3);
            assertThat(journal.get(2).stdoutTail()).isEqualTo("token=****\n");
            assertThat(journal.get(2).stderrTail()).isEqualTo("****\n");
            assertThat(journal.get(2).command()).doesNotContain(token).contains("***");
            assertThat(journal.get(3).timedOut()).isTrue();
            assertThat(journal.get(3).exitCode()).isEqualTo(124);
            assertThat(journal.get(4).command()).isEqualTo("echo bye");
            assertThat(journal).allSatisfy(e -> assertThat(e.startedAt()).isNotNull());
            assertThat(journal.get(0).startedAt()).isBeforeOrEqualTo(journal.get(4).startedAt());

            factory.retire("j1", RetireMode.DESTROY);
            assertThat(factory.sessionStore().journal("j1", 100)).isEmpty();
        }
    }

    @Test
    void theConfigFileAndItsEnvironmentOverrideBoundTheJournal() throws Exception {
        Path repo = Git.bareRepository(tmp.resolve("app.git"));
        Path config = Files.writeString(tmp.resolve("factory.yaml"), "journal:\n  maxEntries: 2\n");
        for (Map<String, String> env : List.of(Map.<String, String>of(), Map.of("FACTORY_JOURNAL_MAX_ENTRIES", "1"))) {
            String id = "jc" + env.size();
            try (SandboxFactory factory = SandboxFactory.builder().provider("local").config(config).environment(env)
                    .stateDirectory(tmp.resolve("state")).build()) {
                SessionHandle session = factory.openSession(SessionSpec.builder(id).repository(repo.toString()).branch("b").build());
                for (int i = 1; i <= 3; i++) {
                    session.executeCommand("echo " + i);
                }
                assertThat(factory.sessionStore().journal(id, 10)).extracting(JournalEntry::command)
                        .as("journal of %s with %s", id, env).containsExactlyElementsOf(env.isEmpty() ? List.of("echo 2", "echo 3") : List.of("echo 3"));
            }
        }
    }

    @Test
    void aBadJournalSizeIsRefusedNamingTheKeyAndCreatesNothing() throws Exception {
        Path config = Files.writeString(tmp.resolve("factory.yaml"), "journal:\n  maxEntries: -1\n");
        assertThatThrownBy(() -> SandboxFactory.builder().provider("local").config(config).environment(Map.of())
                .stateDirectory(tmp.resolve("fresh")).build())
                .hasMessage("Invalid value '-1' for configuration key 'journal.maxEntries' in " + config
                        + "; it must be between 0 (no journal) and 1000000.");
        assertThatThrownBy(() -> SandboxFactory.builder().provider("local").environment(Map.of("FACTORY_JOURNAL_MAX_ENTRIES", "many"))
                .stateDirectory(tmp.resolve("fresh")).build())
                .hasMessageContaining("FACTORY_JOURNAL_MAX_ENTRIES").hasMessageContaining("'many' is not a whole number");
        assertThat(tmp.resolve("fresh")).doesNotExist();
    }

    @Test
    void eachSessionKeepsOnlyItsNewestEntries() throws Exception {
        Path repo = Git.bareRepository(tmp.resolve("app.git"));
        try (SandboxFactory factory = SandboxFactory.builder().provider("local").environment(Map.of()).stateDirectory(tmp.resolve("state"))
                .journalSize(3).build()) {
            SessionHandle a = factory.openSession(SessionSpec.builder("ja").repository(repo.toString()).branch("b").build());
            SessionHandle b = factory.openSession(SessionSpec.builder("jb").repository(repo.toString()).branch("b").build());
            for (int i = 1; i <= 5; i++) {
                a.executeCommand("echo a" + i);
            }
            b.executeCommand("echo b1");

            assertThat(factory.sessionStore().journal("ja", 10)).extracting(JournalEntry::command).containsExactly("echo a3", "echo a4", "echo a5");
            assertThat(factory.sessionStore().journal("ja", 2)).extracting(JournalEntry::command).containsExactly("echo a4", "echo a5");
            assertThat(factory.sessionStore().journal("jb", 10)).extracting(JournalEntry::origin).containsExactly("api");
        }
    }

    @Test
    void aTailIsTheLastFourKibibytesCutAtACharacterBoundary() {
        String text = "x".repeat(5000) + "\u00e9".repeat(10);
        String tail = JournalEntry.tail(text);
        assertThat(tail).endsWith("\u00e9".repeat(10));
        assertThat(tail.getBytes(java.nio.charset.StandardCharsets.UTF_8)).hasSize(JournalEntry.TAIL_BYTES);
        assertThat(JournalEntry.tail("short")).isEqualTo("short");
        String emoji = "\uD83D\uDE00".repeat(2000);
        assertThat(JournalEntry.tail(emoji).getBytes(java.nio.charset.StandardCharsets.UTF_8)).hasSize(JournalEntry.TAIL_BYTES);
    }
}
