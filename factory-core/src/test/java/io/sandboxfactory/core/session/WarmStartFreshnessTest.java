package io.sandboxfactory.core.session;

import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.core.testing.RecordingListener;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every warm start brings a clean session branch up to its upstream and never touches work: real
 * git, a real bare repository that another clone pushes to, the local provider.
 */
class WarmStartFreshnessTest {

    @TempDir
    Path tmp;
    Path remote;
    Path pusher;
    Path state;

    @BeforeEach
    void fixtures() throws IOException {
        remote = Git.bareRepository(tmp.resolve("remote/app.git"), "work");
        pusher = tmp.resolve("pusher");
        Git.run(tmp, "clone", "-q", remote.toString(), pusher.toString());
        state = tmp.resolve("state");
    }

    private SandboxFactory factory() {
        return SandboxFactory.builder().provider("local").environment(Map.of()).stateDirectory(state).build();
    }

    private SessionSpec spec(String branch) {
        return SessionSpec.builder("s").repository(remote.toString()).branch(branch).build();
    }

    private Path checkout() {
        return state.resolve("sessions/s/app");
    }

    /** Another clone pushes one more commit to {@code branch} of the remote. */
    private String pushUpstream(String branch, String file) throws IOException {
        Git.run(pusher, "checkout", "-q", branch);
        Git.run(pusher, "pull", "-q", "--ff-only");
        Files.writeString(pusher.resolve(file), "upstream\n");
        Git.run(pusher, "add", file);
        Git.run(pusher, "commit", "-q", "-m", "upstream " + file);
        Git.run(pusher, "push", "-q", "origin", branch);
        return Git.revParse(pusher, "HEAD").strip();
    }

    private String freshness(SandboxFactory factory) {
        return factory.sessionStore().find("s").orElseThrow().freshness().orElse("");
    }

    /** Stops the open session (its files stay), makes {@code change}, and opens it again: a warm start. */
    private void warmStartAfter(SandboxFactory factory, String branch, ThrowingRunnable change) throws IOException {
        factory.retire("s", RetireMode.STOP);
        change.run();
        factory.openSession(spec(branch));
    }

    interface ThrowingRunnable {
        void run() throws IOException;
    }

    @Test
    void aCleanBranchStrictlyBehindItsUpstreamIsFastForwarded() throws IOException {
        try (SandboxFactory factory = factory()) {
            factory.openSession(spec("work"));
            String[] upstream = new String[1];

            warmStartAfter(factory, "work", () -> upstream[0] = pushUpstream("work", "new.txt"));

            assertThat(Git.revParse(checkout(), "HEAD").strip()).isEqualTo(upstream[0]);
            assertThat(checkout().resolve("new.txt")).hasContent("upstream");
            assertThat(freshness(factory)).isEqualTo("fast-forwarded 1 commit(s) to origin/work");
            assertThat(Git.run(checkout(), "rev-list", "--merges", "--count", "HEAD").strip()).as("no merge commit").isEqualTo("0");
        }
    }

    @Test
    void theComparisonWithTheUpstreamStreamsNothingToTheUser() throws IOException {
        RecordingListener listener = new RecordingListener();
        try (SandboxFactory factory = SandboxFactory.builder().provider("local").environment(Map.of()).stateDirectory(state)
                .sessionListener(listener).build()) {
            factory.openSession(spec("work"));
            listener.clear();

            warmStartAfter(factory, "work", () -> pushUpstream("work", "new.txt"));

            assertThat(listener.phases()).contains(SessionPhase.FETCH, SessionPhase.FAST_FORWARDED);
            assertThat(String.join("", listener.outputs())).doesNotContain("@@");
        }
    }

    @Test
    void aDirtyTreeIsLeftUntouchedAndReported() throws IOException {
        try (SandboxFactory factory = factory()) {
            factory.openSession(spec("work"));
            String before = Git.revParse(checkout(), "HEAD").strip();
            Files.writeString(checkout().resolve("README.md"), "my uncommitted edit\n");

            warmStartAfter(factory, "work", () -> pushUpstream("work", "new.txt"));

            assertThat(Git.revParse(checkout(), "HEAD").strip()).isEqualTo(before);
            assertThat(checkout().resolve("README.md")).hasContent("my uncommitted edit");
            assertThat(checkout().resolve("new.txt")).doesNotExist();
            assertThat(freshness(factory)).isEqualTo("behind 1, dirty: not fast-forwarded to origin/work");
        }
    }

    @Test
    void aDivergedBranchIsLeftUntouchedAndReported() throws IOException {
        try (SandboxFactory factory = factory()) {
            factory.openSession(spec("work"));
            Files.writeString(checkout().resolve("mine.txt"), "local work\n");
            Git.run(checkout(), "add", "mine.txt");
            Git.run(checkout(), "commit", "-q", "-m", "local work");
            String local = Git.revParse(checkout(), "HEAD").strip();

            warmStartAfter(factory, "work", () -> pushUpstream("work", "new.txt"));

            assertThat(Git.revParse(checkout(), "HEAD").strip()).isEqualTo(local);
            assertThat(checkout().resolve("new.txt")).doesNotExist();
            assertThat(freshness(factory)).isEqualTo("diverged from origin/work (ahead 1, behind 1)");
        }
    }

    @Test
    void aLocalOnlyBranchIsLeftUntouched() throws IOException {
        try (SandboxFactory factory = factory()) {
            factory.openSession(spec("solo"));
            String before = Git.revParse(checkout(), "HEAD").strip();

            warmStartAfter(factory, "solo", () -> pushUpstream("main", "on-main.txt"));

            assertThat(Git.revParse(checkout(), "HEAD").strip()).isEqualTo(before);
            assertThat(checkout().resolve("on-main.txt")).doesNotExist();
            assertThat(freshness(factory)).isEqualTo("local only");
        }
    }

    @Test
    void anUpToDateBranchSaysSo() throws IOException {
        try (SandboxFactory factory = factory()) {
            factory.openSession(spec("work"));

            warmStartAfter(factory, "work", () -> { });

            assertThat(freshness(factory)).isEqualTo("up to date with origin/work");
        }
    }
}
