package io.sandboxfactory.core.files;

import io.sandboxfactory.api.files.PathOutsideRootException;
import io.sandboxfactory.api.files.SandboxFileException;
import io.sandboxfactory.api.SandboxStatus;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.session.StartMode;
import io.sandboxfactory.core.testing.Git;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The passive view on real sessions of the local provider, opened through the façade with a real git remote. */
class PeekFilesystemTest {

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

    private SessionSpec spec(String id, StartMode mode) {
        return SessionSpec.builder(id).repository(remote.toString()).branch("work").startMode(mode).build();
    }

    private static void assertNotMaterialized(PeekFilesystem peek) {
        assertThat(peek.materialized()).isFalse();
        assertThat(peek.list("")).isEmpty();
        assertThat(peek.list("src")).isEmpty();
        assertThat(peek.exists("README.md")).isFalse();
        assertThatThrownBy(() -> peek.readFile("README.md"))
                .isInstanceOfSatisfying(NotMaterializedException.class, e -> {
                    assertThat(e.code()).isEqualTo("NOT_MATERIALIZED");
                    assertThat(e.path()).isEqualTo("README.md");
                })
                .hasMessageContaining("Session '" + peek.sessionId() + "' is not materialized");
        assertThatThrownBy(() -> peek.readText("README.md")).isInstanceOf(NotMaterializedException.class);
        assertThatThrownBy(() -> peek.readFile("README.md", new ByteArrayOutputStream())).isInstanceOf(NotMaterializedException.class);
        assertThatThrownBy(() -> peek.stat("README.md")).isInstanceOf(NotMaterializedException.class);
        assertThatThrownBy(() -> peek.realpath("README.md")).isInstanceOf(NotMaterializedException.class);
    }

    @Test
    void aSessionThisProcessDoesNotHoldReadsAsNotMaterializedAndNothingIsCreated() {
        try (SandboxFactory factory = factory()) {
            PeekFilesystem peek = factory.peekFiles("never-opened");
            assertNotMaterialized(peek);
            assertThat(factory.session("never-opened")).isEmpty();
            assertThat(state.resolve("sessions/never-opened")).doesNotExist();
        }
    }

    @Test
    void aLazySessionThatNeverStartedStaysUnstarted() {
        try (SandboxFactory factory = factory()) {
            SessionHandle handle = factory.openSession(spec("lazy", StartMode.LAZY));
            PeekFilesystem peek = factory.peekFiles("lazy");
            assertNotMaterialized(peek);
            assertThat(handle.sandbox().status()).isEqualTo(SandboxStatus.PENDING);
            assertThat(state.resolve("sessions/lazy")).doesNotExist();
        }
    }

    @Test
    void readsARunningSessionsCheckout() {
        try (SandboxFactory factory = factory()) {
            SessionHandle handle = factory.openSession(spec("live", StartMode.EAGER));
            PeekFilesystem peek = factory.peekFiles("live");
            assertThat(peek.materialized()).isTrue();
            assertThat(peek.readText("README.md")).isEqualTo("# fixture\n");
            assertThat(peek.list("")).extracting(FileInfo::name).contains("README.md", ".git");
            assertThat(peek.exists("README.md")).isTrue();
            assertThat(peek.exists("missing")).isFalse();
            assertThat(peek.stat("README.md").size()).isEqualTo(10);
            assertThatThrownBy(() -> peek.readFile("missing"))
                    .isInstanceOfSatisfying(SandboxFileException.class, e -> assertThat(e.code()).isEqualTo(SandboxFileException.NOT_FOUND));
            assertThat(handle.checkout()).contains(state.resolve("sessions/live/site").toString());
        }
    }

    @Test
    void aStoppedSessionReadsAsNotMaterializedAndIsNotRestarted() {
        try (SandboxFactory factory = factory()) {
            SessionHandle handle = factory.openSession(spec("stopped", StartMode.EAGER));
            handle.sandbox().stop();
            PeekFilesystem peek = factory.peekFiles("stopped");
            assertNotMaterialized(peek);
            assertThat(handle.sandbox().status()).isEqualTo(SandboxStatus.STOPPED);
        }
    }

    @Test
    void aRetiredSessionReadsAsNotMaterialized() {
        try (SandboxFactory factory = factory()) {
            factory.openSession(spec("retired", StartMode.EAGER));
            factory.retire("retired", RetireMode.STOP);
            assertNotMaterialized(factory.peekFiles("retired"));
            assertThat(state.resolve("sessions/retired/site/README.md")).exists();
        }
    }

    @Test
    void pathsAreCheckedEvenWhenNotMaterialized() {
        try (SandboxFactory factory = factory()) {
            PeekFilesystem peek = factory.peekFiles("any");
            assertThatThrownBy(() -> peek.list("../other-session"))
                    .isInstanceOf(PathOutsideRootException.class)
                    .hasMessageContaining("'../other-session'");
            assertThatThrownBy(() -> peek.exists("/etc/passwd")).isInstanceOf(PathOutsideRootException.class);
        }
    }
}
