package io.sandboxfactory.core.session;

import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.core.testing.SessionHarness;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Nothing the user made in a session is lost: stopping keeps every file, reconnecting never resets
 * work, failures (fetch, setup) never delete, only an explicit destroy removes the session, a
 * checkout holding work is never replaced, and a directory that is not ours is never adopted or
 * wiped. Real local provider, real git, real SQLite store; each harness is one process.
 */
class NothingLostTest {

    @TempDir
    Path tmp;
    Path remote;
    Path state;

    @BeforeEach
    void fixtures() throws IOException {
        remote = Git.bareRepository(tmp.resolve("remote/lib.git"));
        state = tmp.resolve("state");
    }

    private SessionSpecBuilder spec() {
        return SessionSpec.builder("s1").repository(remote.toString()).branch("work").teardownCommands("true");
    }

    /** Work of every kind: a local commit, a staged file, an edited tracked file, an untracked file, an ignored file, a file beside the checkout. */
    private static Work makeWork(Path sessionDir, Path checkout) throws IOException {
        Files.writeString(checkout.resolve("committed.txt"), "committed locally\n");
        Files.writeString(checkout.resolve(".gitignore"), "build/\n");
        Git.run(checkout, "add", "committed.txt", ".gitignore");
        Git.run(checkout, "commit", "-q", "-m", "local commit");
        String head = Git.revParse(checkout, "HEAD");
        Files.writeString(checkout.resolve("staged.txt"), "staged\n");
        Git.run(checkout, "add", "staged.txt");
        Files.writeString(checkout.resolve("README.md"), "edited, not committed\n");
        Files.writeString(checkout.resolve("untracked.txt"), "untracked\n");
        Files.createDirectories(checkout.resolve("build"));
        Files.writeString(checkout.resolve("build/out.bin"), "ignored output\n");
        Files.writeString(sessionDir.resolve("notes.txt"), "beside the checkout\n");
        return new Work(sessionDir, checkout, head);
    }

    private record Work(Path sessionDir, Path checkout, String head) {
        void assertIntact() {
            assertThat(Git.run(checkout, "symbolic-ref", "--short", "HEAD")).as("branch").isEqualTo("work");
            assertThat(Git.revParse(checkout, "HEAD")).as("HEAD, local commit included").isEqualTo(head);
            assertThat(Git.run(checkout, "diff", "--cached", "--name-only")).as("staged").isEqualTo("staged.txt");
            assertThat(checkout.resolve("README.md")).hasContent("edited, not committed");
            assertThat(checkout.resolve("untracked.txt")).hasContent("untracked");
            assertThat(checkout.resolve("staged.txt")).hasContent("staged");
            assertThat(checkout.resolve("build/out.bin")).hasContent("ignored output");
            assertThat(sessionDir.resolve("notes.txt")).hasContent("beside the checkout");
        }
    }

    /** Someone else pushes to main meanwhile: a reconnect fetches it and must still not move the session branch. */
    private void pushToMainElsewhere() throws IOException {
        Path other = tmp.resolve("elsewhere-" + System.nanoTime());
        Git.run(tmp, "clone", "-q", remote.toString(), other.toString());
        Files.writeString(other.resolve("README.md"), "changed upstream\n");
        Git.run(other, "commit", "-q", "-am", "upstream change");
        Git.run(other, "push", "-q", "origin", "HEAD:main");
    }

    @Test
    void stopAndEveryKindOfReconnectKeepAllWork() throws Exception {
        Work work;
        try (SessionHarness factory = new SessionHarness(state)) {
            SessionHandle handle = factory.open(spec().build());
            work = makeWork(factory.sessionDirectory("s1"), Path.of(handle.checkout().orElseThrow()));

            factory.retire("s1", RetireMode.STOP);
            work.assertIntact();

            pushToMainElsewhere();
            SessionHandle reopened = factory.open(spec().build());
            assertThat(reopened.sandbox()).isNotSameAs(handle.sandbox());
            work.assertIntact();

            // Stop and start the same instance (a restart without retirement).
            reopened.sandbox().stop();
            reopened.awaitStarted();
            work.assertIntact();
            assertThat(factory.listener.commands()).filteredOn(c -> c.contains(" clone ")).hasSize(1);
        }
        // A new process reconnects to the stopped sandbox.
        try (SessionHarness factory = new SessionHarness(state)) {
            factory.open(spec().build());
            work.assertIntact();
            assertThat(factory.listener.commands()).noneMatch(c -> c.contains(" clone ") || c.contains("rm -rf"));
            assertThat(Git.run(work.checkout(), "log", "--oneline", "origin/main")).as("the fetch did happen").contains("upstream change");
        }
    }

    @Test
    void failuresNeverDeleteTheSessionOnlyAnExplicitDestroyDoes() throws Exception {
        try (SessionHarness factory = new SessionHarness(state)) {
            SessionHandle handle = factory.open(spec().build());
            Work work = makeWork(factory.sessionDirectory("s1"), Path.of(handle.checkout().orElseThrow()));
            factory.retire("s1", RetireMode.STOP);

            // The remote is gone: the reconnect's fetch fails.
            Path away = tmp.resolve("remote-away");
            Files.move(remote, away);
            assertThatThrownBy(() -> factory.open(spec().build()))
                    .isInstanceOfSatisfying(MaterializeException.class, e -> assertThat(e.errorCode()).isEqualTo(StandardErrorCode.FETCH_FAILED.toErrorCode()));
            work.assertIntact();
            Files.move(away, remote);

            // A setup that fails (and its teardown) deletes nothing.
            assertThatThrownBy(() -> factory.open(spec().setupCommands("exit 4").build())).isInstanceOf(SetupCommandException.class);
            work.assertIntact();

            factory.retire("s1", RetireMode.STOP);
            work.assertIntact();
        }
        // Closing a factory is not a request to destroy.
        assertThat(state.resolve("sessions/s1")).isDirectory();
        try (SessionHarness factory = new SessionHarness(state)) {
            factory.retire("s1", RetireMode.DESTROY);
            assertThat(factory.sessionDirectory("s1")).doesNotExist();
        }
    }

    @Test
    void aCheckoutOfAnotherUrlIsReplacedOnlyWhenItHoldsNoWork() throws Exception {
        Path other = Git.bareRepository(tmp.resolve("other/lib.git"));
        try (SessionHarness factory = new SessionHarness(state)) {
            factory.open(SessionSpec.builder("s1").repository(other.toString()).branch("x").build());
            Path checkout = factory.sessionDirectory("s1").resolve("lib");

            for (String kind : new String[] {"untracked", "unpushed", "stash"}) {
                switch (kind) {
                    case "untracked" -> Files.writeString(checkout.resolve("precious.txt"), "keep me\n");
                    case "unpushed" -> {
                        Git.run(checkout, "add", "precious.txt");
                        Git.run(checkout, "commit", "-q", "-m", "unpushed");
                    }
                    default -> {
                        Git.run(checkout, "reset", "-q", "--hard", "origin/main");
                        Files.writeString(checkout.resolve("README.md"), "stashed edit\n");
                        Git.run(checkout, "stash", "-q");
                    }
                }
                factory.retire("s1", RetireMode.STOP);
                factory.store.delete("s1"); // forget the session so it may be reopened on another URL

                assertThatThrownBy(() -> factory.open(SessionSpec.builder("s1").repository(remote.toString()).branch("x").build()))
                        .as(kind)
                        .isInstanceOfSatisfying(MaterializeException.class,
                                e -> assertThat(e.errorCode()).isEqualTo(StandardErrorCode.CHECKOUT_CONFLICT.toErrorCode()))
                        .hasMessageContaining("left untouched");
                assertThat(Git.run(checkout, "config", "--get", "remote.origin.url")).as(kind).isEqualTo(other.toString());
                factory.retire("s1", RetireMode.STOP);
                factory.store.delete("s1");
            }
            assertThat(Git.run(checkout, "stash", "list")).isNotEmpty();

            // Without any work left, the checkout is ours to replace.
            Git.run(checkout, "stash", "drop", "-q");
            factory.open(SessionSpec.builder("s1").repository(remote.toString()).branch("x").build());
            assertThat(Git.run(checkout, "config", "--get", "remote.origin.url")).isEqualTo(remote.toString());
        }
    }

    @Test
    void aSessionDirectoryThatIsNotOursIsNeverAdoptedNorWiped() throws Exception {
        try (SessionHarness factory = new SessionHarness(state)) {
            Path foreign = Files.createDirectories(factory.sessionDirectory("s1"));
            Files.writeString(foreign.resolve("precious.txt"), "not the factory's\n");

            assertThatThrownBy(() -> factory.open(spec().build()))
                    .isInstanceOfSatisfying(SandboxException.class, e -> assertThat(e.code()).isEqualTo("FOREIGN_DIRECTORY"));
            factory.retire("s1", RetireMode.DESTROY);

            assertThat(foreign.resolve("precious.txt")).hasContent("not the factory's");
            try (var entries = Files.list(foreign)) {
                assertThat(entries).as("nothing added, nothing removed").hasSize(1);
            }
        }
    }
}
