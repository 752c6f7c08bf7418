package io.sandboxfactory.core.session;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.internal.git.SessionBranch;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.core.testing.SessionHarness;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SessionBranchTest {

    @TempDir
    Path tmp;
    Path remote;

    @BeforeEach
    void fixtures() throws IOException {
        remote = Git.bareRepository(tmp.resolve("remote/lib.git"), "develop");
    }

    private static CommandResult run(MastraSandbox<?> sandbox, String command) {
        CommandResult result = sandbox.executeCommand(command, List.of(), CommandOptions.builder().cwd("lib")
                .env("GIT_AUTHOR_NAME", "Agent").env("GIT_AUTHOR_EMAIL", "agent@example.invalid")
                .env("GIT_COMMITTER_NAME", "Agent").env("GIT_COMMITTER_EMAIL", "agent@example.invalid").build());
        assertThat(result.exitCode()).as(command + ": " + result.stderr()).isZero();
        return result;
    }

    @Test
    void aSessionBranchThatExistsOnlyOnTheRemoteIsResumedWithItsCommits() throws Exception {
        SessionSpec spec = SessionSpec.builder("s1").repository(remote.toString()).branch("agent/task-7").build();
        String pushed;
        try (SessionHarness factory = new SessionHarness(tmp.resolve("state-a"))) {
            MastraSandbox<?> sandbox = factory.open(spec).sandbox();
            run(sandbox, "echo progress > progress.txt && git add progress.txt && git commit -q -m progress");
            // Pushed from the host: the session sees a repository given as a host path read-only.
            Git.run(factory.sessionDirectory("s1").resolve("lib"), "push", "-q", "origin", "agent/task-7");
            pushed = Git.revParse(remote, "agent/task-7");
            factory.retire("s1", RetireMode.DESTROY);
            assertThat(factory.sessionDirectory("s1")).doesNotExist();
        }
        // A new sandbox (another state directory: nothing local) resumes the branch from origin.
        try (SessionHarness factory = new SessionHarness(tmp.resolve("state-b"))) {
            MastraSandbox<?> sandbox = factory.open(spec).sandbox();
            Path checkout = factory.sessionDirectory("s1").resolve("lib");
            assertThat(Git.run(checkout, "symbolic-ref", "--short", "HEAD")).isEqualTo("agent/task-7");
            assertThat(Git.revParse(checkout, "HEAD")).isEqualTo(pushed);
            assertThat(checkout.resolve("progress.txt")).hasContent("progress");
            assertThat(Git.run(checkout, "rev-parse", "--abbrev-ref", "agent/task-7@{upstream}")).isEqualTo("origin/agent/task-7");
            assertThat(run(sandbox, "git log --format=%s -1").stdout().strip()).isEqualTo("progress");
        }
    }

    @Test
    void aNewBranchStartsFromTheBaseAndALocalBranchIsCheckedOutAgain() throws Exception {
        Path state = tmp.resolve("state");
        try (SessionHarness factory = new SessionHarness(state)) {
            factory.open(SessionSpec.builder("s1").repository(remote.toString()).branch("topic").baseBranch("develop").build());
            Path checkout = factory.sessionDirectory("s1").resolve("lib");
            assertThat(Git.revParse(checkout, "HEAD")).isEqualTo(Git.revParse(remote, "develop"));
            // The user switches away; the next start puts the checkout back on the session branch.
            Git.run(checkout, "checkout", "-q", "-b", "elsewhere");
            factory.retire("s1", RetireMode.STOP);
        }
        try (SessionHarness factory = new SessionHarness(state)) {
            factory.open(SessionSpec.builder("s1").repository(remote.toString()).branch("topic").baseBranch("develop").build());
            assertThat(Git.run(factory.sessionDirectory("s1").resolve("lib"), "symbolic-ref", "--short", "HEAD")).isEqualTo("topic");
        }
    }

    @Test
    void uncommittedWorkThatACheckoutWouldOverwriteIsKeptOnTheCurrentBranch() throws Exception {
        Path state = tmp.resolve("state");
        Path checkout;
        try (SessionHarness factory = new SessionHarness(state)) {
            factory.open(SessionSpec.builder("s1").repository(remote.toString()).branch("one").build());
            checkout = factory.sessionDirectory("s1").resolve("lib");
            Files.writeString(checkout.resolve("README.md"), "edited but not committed\n");
            factory.retire("s1", RetireMode.STOP);
        }
        try (SessionHarness factory = new SessionHarness(state)) {
            // Branch "develop" changes README.md? No: it adds develop.txt; make a conflicting branch on the remote.
            Path seed = tmp.resolve("seed-conflict");
            Git.run(tmp, "clone", "-q", remote.toString(), seed.toString());
            Files.writeString(seed.resolve("README.md"), "changed upstream\n");
            Git.run(seed, "commit", "-q", "-am", "conflicting");
            Git.run(seed, "push", "-q", "origin", "HEAD:refs/heads/two");
            factory.open(SessionSpec.builder("s1").repository(remote.toString()).branch("two").build());
            assertThat(Git.run(checkout, "symbolic-ref", "--short", "HEAD")).isEqualTo("one");
            assertThat(checkout.resolve("README.md")).hasContent("edited but not committed");
        }
    }

    @Test
    void aMissingBaseBranchFailsWithoutCreatingTheBranch() throws Exception {
        try (SessionHarness factory = new SessionHarness(tmp.resolve("state"))) {
            assertThatThrownBy(() -> factory.open(SessionSpec.builder("s1").repository(remote.toString()).branch("x")
                    .baseBranch("no-such-base").build()))
                    .isInstanceOfSatisfying(MaterializeException.class, e -> assertThat(e.errorCode()).isEqualTo(StandardErrorCode.BRANCH_FAILED.toErrorCode()))
                    .hasMessage("Base branch 'no-such-base' does not exist on origin of " + factory.sessionDirectory("s1").resolve("lib")
                            + ", so branch 'x' cannot be created from it.");
            assertThat(Git.run(factory.sessionDirectory("s1").resolve("lib"), "branch", "--list", "x")).isEmpty();
        }
    }

    @Test
    void aNonEmptyDirectoryThatIsNotOursIsNeverWiped() throws Exception {
        try (SessionHarness factory = new SessionHarness(tmp.resolve("state"))) {
            Path foreign = factory.sessionDirectory("s1").resolve("lib");
            Files.createDirectories(foreign);
            // The session directory is the local provider's (marked); only the checkout inside it is foreign.
            Files.writeString(factory.sessionDirectory("s1").resolve(".sandbox-factory-session"), "s1\n");
            Files.writeString(foreign.resolve("precious.txt"), "keep me\n");
            assertThatThrownBy(() -> factory.open(SessionSpec.builder("s1").repository(remote.toString()).branch("x").build()))
                    .isInstanceOfSatisfying(MaterializeException.class, e -> assertThat(e.errorCode()).isEqualTo(StandardErrorCode.CHECKOUT_CONFLICT.toErrorCode()))
                    .hasMessageContaining("left untouched");
            assertThat(foreign.resolve("precious.txt")).hasContent("keep me");
        }
    }

    @Test
    void aCheckoutWeClonedFromAnotherUrlIsReplaced() throws Exception {
        Path other = Git.bareRepository(tmp.resolve("other/lib.git"), "elsewhere-only");
        try (SessionHarness factory = new SessionHarness(tmp.resolve("state"))) {
            factory.open(SessionSpec.builder("s1").repository(other.toString()).branch("x").build());
            Path checkout = factory.sessionDirectory("s1").resolve("lib");
            factory.retire("s1", RetireMode.STOP);
            factory.store.delete("s1"); // forget the session so it may be reopened on another URL
            factory.open(SessionSpec.builder("s1").repository(remote.toString()).branch("x").build());
            assertThat(Git.run(checkout, "config", "--get", "remote.origin.url")).isEqualTo(remote.toString());
            assertThat(Git.run(checkout, "branch", "-r")).doesNotContain("elsewhere-only");
        }
    }

    @Test
    void anIndexLockLeftByAKilledGitIsRemovedWhenStaleAndRespectedWhileFresh() throws Exception {
        Path state = tmp.resolve("state");
        SessionSpec spec = SessionSpec.builder("s1").repository(remote.toString()).branch("topic").build();
        Path lock;
        try (SessionHarness factory = new SessionHarness(state)) {
            factory.open(spec);
            Path checkout = factory.sessionDirectory("s1").resolve("lib");
            Git.run(checkout, "checkout", "-q", "-b", "elsewhere");
            factory.retire("s1", RetireMode.STOP);
            lock = checkout.resolve(".git/index.lock");
        }

        // A lock written a moment ago may belong to a git that is still working: the checkout fails and leaves it.
        Files.writeString(lock, "");
        try (SessionHarness factory = new SessionHarness(state)) {
            assertThatThrownBy(() -> factory.open(spec)).isInstanceOf(MaterializeException.class)
                    .hasMessageContaining("index.lock").hasMessageContaining("branch 'topic'");
            assertThat(lock).exists();
        }

        // One older than any git holds it was left by a killed git: the next start removes it and goes on.
        Files.setLastModifiedTime(lock, FileTime.from(Instant.now().minus(Duration.ofMinutes(SessionBranch.STALE_LOCK_MINUTES + 1))));
        try (SessionHarness factory = new SessionHarness(state)) {
            factory.open(spec);
            assertThat(Git.run(factory.sessionDirectory("s1").resolve("lib"), "symbolic-ref", "--short", "HEAD")).isEqualTo("topic");
            assertThat(lock).doesNotExist();
        }
    }
}
