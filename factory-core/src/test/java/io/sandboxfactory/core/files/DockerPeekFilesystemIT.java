package io.sandboxfactory.core.files;

import io.sandboxfactory.core.testing.RequiresDocker;
import com.github.dockerjava.api.model.Container;
import io.sandboxfactory.api.SandboxStatus;
import io.sandboxfactory.core.internal.session.SessionDefaults;
import io.sandboxfactory.core.internal.session.SessionEntry;
import io.sandboxfactory.core.internal.session.SessionMemo;
import io.sandboxfactory.core.internal.session.SessionPlan;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.provider.docker.DockerSandbox;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The passive view over docker sandboxes held in a session memo: an unstarted session creates no
 * container, a stopped one is not started again, a running one is read (checked on the engine).
 */
@ExtendWith(RequiresDocker.class)
class DockerPeekFilesystemIT {

    private final DockerSandboxes docker = new DockerSandboxes();
    private final SessionMemo memo = new SessionMemo();

    @AfterEach
    void cleanUp() {
        docker.close();
    }

    /** The memo entry of a session of repository octo/app, whose checkout is /workspace/app. */
    private SessionEntry hold(String sessionId, DockerSandbox sandbox) {
        SessionEntry entry = memo.getOrCreate(sessionId, () -> sandbox);
        entry.plan(SessionPlan.of(SessionSpec.builder(sessionId).repository("octo/app").branch("work").build(), SessionDefaults.defaults()));
        return entry;
    }

    private List<Container> containers() {
        return docker.containers();
    }

    @Test
    void anUnstartedSessionCreatesNoContainer() {
        String id = docker.sessionId("peek-pending");
        DockerSandbox sandbox = docker.sandbox(id);
        hold(id, sandbox);
        PeekFilesystem peek = new PeekFilesystem(memo, id);

        assertThat(peek.list("")).isEmpty();
        assertThat(peek.exists("README.md")).isFalse();
        assertThatThrownBy(() -> peek.readFile("README.md")).isInstanceOf(NotMaterializedException.class);
        assertThatThrownBy(() -> peek.stat("README.md")).isInstanceOf(NotMaterializedException.class);

        assertThat(containers()).isEmpty();
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.PENDING);
    }

    @Test
    void aRunningSessionIsReadAndAStoppedOneIsNotStartedAgain() {
        String id = docker.sessionId("peek-stopped");
        DockerSandbox sandbox = docker.sandbox(id);
        SessionEntry entry = hold(id, sandbox);
        sandbox.start();
        entry.resolveWorkdir("/workspace");
        SandboxFilesystem.of(sandbox, "/workspace").writeText("app/notes/todo.txt", "ship it");
        PeekFilesystem peek = new PeekFilesystem(memo, id);
        assertThat(peek.readText("notes/todo.txt")).isEqualTo("ship it");
        assertThat(peek.list("notes")).extracting(FileInfo::name).containsExactly("todo.txt");

        sandbox.stop();
        assertThat(peek.materialized()).isFalse();
        assertThat(peek.list("notes")).isEmpty();
        assertThat(peek.exists("notes/todo.txt")).isFalse();
        assertThatThrownBy(() -> peek.readText("notes/todo.txt")).isInstanceOf(NotMaterializedException.class);

        assertThat(sandbox.status()).isEqualTo(SandboxStatus.STOPPED);
        assertThat(containers()).singleElement().satisfies(c -> assertThat(c.getState()).isNotEqualTo("running"));
    }
}
