package io.sandboxfactory.core.session;

import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.core.testing.SessionHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The open pipeline's steps run in the order docs/architecture.md lists them, and a host's start hook after them. */
class OpenPipelineOrderTest {

    @TempDir
    Path tmp;

    @Test
    void anEagerOpenRunsLeaseAcquireMaterializeBranchSetupThenRecord() throws Exception {
        Path remote = Git.bareRepository(tmp.resolve("remote/project.git"));
        Path log = tmp.resolve("setup.log");
        try (SessionHarness factory = new SessionHarness(tmp.resolve("state"))) {
            factory.open(SessionSpec.builder("s1").repository(remote.toUri().toString()).branch("feature/one").baseBranch("main")
                    .setupCommands("echo ran >> '" + log + "'").build());

            assertThat(factory.listener.phases()).containsSubsequence(SessionPhase.START, SessionPhase.SANDBOX_CREATED,
                    SessionPhase.PROBE, SessionPhase.CLONE, SessionPhase.CHECKOUT, SessionPhase.SETUP, SessionPhase.READY);
            assertThat(factory.store.find("s1").orElseThrow().materializedAt()).isPresent();
            assertThat(log).hasContent("ran");
        }
    }

    @Test
    void aHostsStartHookRunsOnALazyStartAfterTheFactorysSetup() throws Exception {
        Path remote = Git.bareRepository(tmp.resolve("remote/project.git"));
        Path log = tmp.resolve("setup.log");
        List<String> seenByHost = new ArrayList<>();
        try (SessionHarness factory = new SessionHarness(tmp.resolve("state"))) {
            SessionHandle handle = factory.open(SessionSpec.builder("s1").repository(remote.toUri().toString()).branch("feature/one")
                    .baseBranch("main").setupCommands("echo ran >> '" + log + "'").startMode(StartMode.LAZY).build());
            Path checkout = factory.sessionDirectory("s1").resolve("project");
            handle.sandbox().setOnStart(previous -> event -> {
                previous.onStart(event);
                seenByHost.add(Files.isDirectory(checkout.resolve(".git")) + " " + Files.exists(log)
                        + " " + factory.store.find("s1").orElseThrow().materializedAt().isPresent());
            });
            assertThat(seenByHost).isEmpty();

            assertThat(handle.executeCommand("git -C project rev-parse --abbrev-ref HEAD").stdout().strip()).isEqualTo("feature/one");

            assertThat(seenByHost).containsExactly("true true true");
        }
    }
}
