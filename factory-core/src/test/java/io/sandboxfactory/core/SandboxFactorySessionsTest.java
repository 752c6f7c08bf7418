package io.sandboxfactory.core;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.SandboxStatus;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.session.SessionSpecBuilder;
import io.sandboxfactory.core.session.StartMode;
import io.sandboxfactory.core.testing.Git;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The session API of the façade, with the real local provider and the default SQLite store. */
class SandboxFactorySessionsTest {

    @TempDir
    Path tmp;
    Path remote;
    Path state;

    @BeforeEach
    void fixtures() throws IOException {
        remote = Git.bareRepository(tmp.resolve("remote/site.git"));
        state = tmp.resolve("state");
    }

    private SandboxFactory factory() {
        return SandboxFactory.builder().provider("local").environment(Map.of()).stateDirectory(state).build();
    }

    private SessionSpecBuilder spec(String id) {
        return SessionSpec.builder(id).repository(remote.toString()).branch("work");
    }

    @Test
    void anEagerOpenReturnsAReadySessionThatSessionFindsAndRetireEnds() {
        try (SandboxFactory factory = factory()) {
            SessionHandle handle = factory.openSession(spec("s1").build());
            assertThat(handle.sandbox().status()).isEqualTo(SandboxStatus.RUNNING);
            assertThat(handle.workdir()).contains(state.resolve("sessions/s1").toString());
            assertThat(handle.layout().orElseThrow().ownRepository().repoDir()).isEqualTo("site");
            assertThat(factory.session("s1").orElseThrow().sandbox()).isSameAs(handle.sandbox());
            assertThat(factory.sessionStore().find("s1")).isPresent();
            assertThat(Files.exists(state.resolve(io.sandboxfactory.core.store.SqliteSessionStore.FILE_NAME))).isTrue();

            factory.retire("s1", RetireMode.DESTROY);
            assertThat(factory.session("s1")).isEmpty();
            assertThat(state.resolve("sessions/s1")).doesNotExist();
        }
    }

    @Test
    void aSandboxMadeThroughTheRawApiGetsTheSessionHookWhenTheSessionIsOpened() {
        try (SandboxFactory factory = factory()) {
            // A raw sandbox sees the host directories its context names (isolated, nothing else): the repository's.
            var raw = factory.sandbox(io.sandboxfactory.api.FactorySandboxContext.builder("raw").hostDirectories(List.of(remote.toString())).build());
            SessionHandle handle = factory.openSession(spec("raw").build());
            assertThat(handle.sandbox()).isSameAs(raw);
            assertThat(handle.checkout()).contains(state.resolve("sessions/raw/site").toString());
            assertThat(state.resolve("sessions/raw/site/.git")).isDirectory();
        }
    }

    @Test
    void sessionNeverCreatesAnythingForASessionItDoesNotHold() {
        try (SandboxFactory factory = factory()) {
            assertThat(factory.session("unknown")).isEmpty();
            assertThat(state.resolve("sessions/unknown")).doesNotExist();
            assertThatThrownBy(() -> factory.refreshToken("unknown", "t"))
                    .isInstanceOf(SandboxException.class)
                    .hasMessage("Session 'unknown' is not open in this factory; open it before refreshing its token.");
        }
    }

    @Test
    void aLazyOpenProvisionsNothingUntilTheFirstCommand() {
        try (SandboxFactory factory = factory()) {
            SessionHandle handle = factory.openSession(spec("lazy").startMode(StartMode.LAZY).build());
            assertThat(handle.sandbox().status()).isEqualTo(SandboxStatus.PENDING);
            assertThat(state.resolve("sessions/lazy")).doesNotExist();
            assertThat(handle.workdir()).isEmpty();
            String branch = handle.sandbox().executeCommand("git rev-parse --abbrev-ref HEAD", List.of(),
                    CommandOptions.builder().cwd("site").build()).stdout().strip();
            assertThat(branch).isEqualTo("work");
            assertThat(handle.workdir()).isPresent();
        }
    }

    @Test
    void aBackgroundOpenStartsAtOnceAndCallersJoinTheSameStart() {
        try (SandboxFactory factory = factory()) {
            SessionHandle handle = factory.openSession(spec("bg").startMode(StartMode.BACKGROUND).build());
            handle.awaitStarted();
            assertThat(handle.sandbox().status()).isEqualTo(SandboxStatus.RUNNING);
            assertThat(handle.sandbox().lastStartOutcome()).isPresent();
            assertThat(handle.checkout()).contains(state.resolve("sessions/bg/site").toString());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"-x", "a..b", "a/.b", "x.lock", "a//b", "/a", "a/", "has space", "HEAD"})
    void invalidBranchNamesAreRejectedBeforeAnythingIsCreated(String branch) throws IOException {
        try (SandboxFactory factory = factory()) {
            assertThatThrownBy(() -> factory.openSession(spec("bad").branch(branch).build()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("Branch '" + branch + "' is not a valid git branch name: ");
            assertThatThrownBy(() -> factory.openSession(spec("bad").baseBranch(branch).build()))
                    .hasMessageStartingWith("Base branch '" + branch + "' is not a valid git branch name: ");
            assertNothingCreated(factory);
        }
    }

    @Test
    void aBranchNameOf256CharactersIsRejectedBeforeAnythingIsCreated() throws IOException {
        try (SandboxFactory factory = factory()) {
            assertThatThrownBy(() -> factory.openSession(spec("bad").branch("b".repeat(256)).build()))
                    .hasMessageContaining("at most 255 characters");
            assertNothingCreated(factory);
        }
    }

    @Test
    void badSessionIdsAndRepositoriesAreRejectedBeforeAnythingIsCreated() throws IOException {
        try (SandboxFactory factory = factory()) {
            assertThatThrownBy(() -> factory.openSession(SessionSpec.builder("../escape").repository(remote.toString()).branch("w").build()))
                    .hasMessage("Session id '../escape' is invalid: it must not contain '/' or '\\'.");
            assertThatThrownBy(() -> factory.openSession(SessionSpec.builder("s").repository("not a repo").branch("w").build()))
                    .hasMessage("Repository 'not a repo' is invalid; it must not contain whitespace or control characters.");
            assertThatThrownBy(() -> factory.openSession(SessionSpec.builder("s").repository("https://user:secret@host/x.git").branch("w").build()))
                    .hasMessageContaining("https://***@host/x.git").hasMessageNotContaining("secret");
            assertNothingCreated(factory);
        }
    }

    @Test
    void reopeningARunningSessionPreparesItForTheNewOpenAsAFreshProcessWould() throws IOException {
        Path log = state.resolve("sessions/re/setup.log");
        try (SandboxFactory factory = factory()) {
            SessionHandle first = factory.openSession(spec("re").setupCommands(List.of("echo x >> ../setup.log")).build());
            factory.openSession(spec("re").setupCommands(List.of("echo x >> ../setup.log")).build());
            assertThat(Files.readAllLines(log)).as("an unchanged setup is not run again").containsExactly("x");

            SessionHandle changed = factory.openSession(spec("re").branch("other").setupCommands(List.of("echo y >> ../setup.log")).build());

            assertThat(changed.sandbox()).as("the running sandbox, prepared again").isSameAs(first.sandbox());
            assertThat(Files.readAllLines(log)).containsExactly("x", "y");
            assertThat(changed.sandbox().executeCommand("git rev-parse --abbrev-ref HEAD", List.of(),
                    CommandOptions.builder().cwd("site").build()).stdout()).isEqualTo("other\n");
            assertThat(factory.sessionStore().find("re").orElseThrow().definition().setupCommands()).containsExactly("echo y >> ../setup.log");
        }
    }

    @Test
    void withoutABaseANewSessionBranchStartsFromTheRemotesDefaultBranchResolvedOnceAndStored() throws IOException {
        Path trunkRemote = Git.bareRepository(tmp.resolve("remote/trunk.git"), "trunk");
        Git.run(trunkRemote, "symbolic-ref", "HEAD", "refs/heads/trunk");
        String trunk = Git.revParse(trunkRemote, "trunk").strip();
        try (SandboxFactory factory = factory()) {
            SessionHandle handle = factory.openSession(SessionSpec.builder("t1").repository(trunkRemote.toString()).branch("work").build());
            assertThat(head(handle)).isEqualTo(trunk);
            assertThat(factory.sessionStore().find("t1").orElseThrow().definition().baseBranch()).contains("trunk");

            // The remote's default branch changes; the session keeps the base it resolved.
            Git.run(trunkRemote, "symbolic-ref", "HEAD", "refs/heads/main");
            factory.retire("t1", RetireMode.STOP);
            SessionHandle reopened = factory.openSession(SessionSpec.builder("t1").repository(trunkRemote.toString()).branch("work-2").build());
            assertThat(head(reopened)).isEqualTo(trunk);
            assertThat(factory.sessionStore().find("t1").orElseThrow().definition().baseBranch()).contains("trunk");
        }
    }

    private static String head(SessionHandle handle) {
        return handle.sandbox().executeCommand("git rev-parse HEAD", List.of(), CommandOptions.builder()
                .cwd(handle.checkout().orElseThrow()).build()).stdout().strip();
    }

    @Test
    void aSessionCannotBeReopenedOnAnotherRepository() throws IOException {
        Path other = Git.bareRepository(tmp.resolve("remote/other.git"));
        try (SandboxFactory factory = factory()) {
            factory.openSession(spec("s1").build());
            assertThatThrownBy(() -> factory.openSession(SessionSpec.builder("s1").repository(other.toString()).branch("work").build()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("works on repository '" + remote + "'");
            factory.retire("s1", RetireMode.DESTROY);
            factory.openSession(SessionSpec.builder("s1").repository(other.toString()).branch("work").build());
        }
    }

    private void assertNothingCreated(SandboxFactory factory) throws IOException {
        assertThat(factory.sessionStore().list()).isEmpty();
        Path sessions = state.resolve("sessions");
        if (Files.exists(sessions)) {
            try (Stream<Path> children = Files.list(sessions)) {
                assertThat(children).isEmpty();
            }
        }
    }
}
