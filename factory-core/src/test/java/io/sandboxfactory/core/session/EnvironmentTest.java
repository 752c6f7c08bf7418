package io.sandboxfactory.core.session;

import io.sandboxfactory.core.internal.setup.SetupCommands;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.core.testing.SessionHarness;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Multi-repository environments: checkouts side by side, per-repository markers and the workspace setup gate. */
class EnvironmentTest {

    @TempDir
    Path tmp;
    Path web;
    Path api;
    Path state;
    Path log;

    @BeforeEach
    void fixtures() throws IOException {
        web = Git.bareRepository(tmp.resolve("remotes/web.git"));
        api = Git.bareRepository(tmp.resolve("remotes/api.git"), "develop");
        state = tmp.resolve("state");
        log = tmp.resolve("setup.log");
    }

    private String record(String word) {
        return "echo " + word + "-in-$(basename \"$PWD\") >> '" + log + "'";
    }

    private SessionSpec spec(String apiSetup) {
        return SessionSpec.builder("env").branch("feature/both")
                .environment(SessionEnvironment.of(List.of(
                        EnvironmentRepository.of(web.toString(), record("web-setup")),
                        new EnvironmentRepository(api.toString(), java.util.Optional.empty(), java.util.Optional.of("develop"), List.of(apiSetup),
                                List.of(), java.util.Optional.empty())),
                        record("workspace-setup")))
                .build();
    }

    private List<String> runs() throws IOException {
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    @Test
    void everyRepositoryIsCheckedOutUnderOneRootWithItsOwnMarkerAndTheWorkspaceSetupRunsOnce() throws Exception {
        Path root = state.resolve("sessions/env");
        try (SessionHarness factory = new SessionHarness(state)) {
            SessionHandle handle = factory.open(spec(record("api-setup")));
            assertThat(handle.layout().orElseThrow().repositories()).extracting(SessionLayout.Checkout::path)
                    .containsExactly(root.resolve("web").toString(), root.resolve("api").toString());
            assertThat(Git.run(root.resolve("web"), "symbolic-ref", "--short", "HEAD")).isEqualTo("feature/both");
            assertThat(Git.run(root.resolve("api"), "symbolic-ref", "--short", "HEAD")).isEqualTo("feature/both");
            assertThat(Git.revParse(root.resolve("api"), "HEAD")).isEqualTo(Git.revParse(api, "develop"));
            assertThat(runs()).containsExactly("web-setup-in-web", "api-setup-in-api", "workspace-setup-in-env");
            assertThat(root.resolve(".mastra-sandbox/repos/web")).content().isEqualToIgnoringNewLines(
                    SetupCommands.of(List.of(record("web-setup"))).markerContent());
            assertThat(root.resolve(".mastra-sandbox/repos/api")).content().isEqualToIgnoringNewLines(
                    SetupCommands.of(List.of(record("api-setup"))).markerContent());
            assertThat(root.resolve(".mastra-sandbox/workspace-setup")).content().isEqualToIgnoringNewLines(
                    SetupCommands.of(List.of(record("workspace-setup"))).markerContent());
            assertThat(root.resolve(".mastra-sandbox/setup")).doesNotExist();
        }
        try (SessionHarness factory = new SessionHarness(state)) {
            factory.open(spec(record("api-setup")));
            assertThat(runs()).as("all gated").hasSize(3);
        }
        // Only the repository whose setup changed runs again; the workspace setup stays done.
        try (SessionHarness factory = new SessionHarness(state)) {
            factory.open(spec(record("api-setup-v2")));
            assertThat(runs()).hasSize(4).last().isEqualTo("api-setup-v2-in-api");
        }
    }

    @Test
    void aFailingRepositorySetupIsListedInSetupFailedAndHoldsBackTheWorkspaceSetupOnce() throws Exception {
        Path root = state.resolve("sessions/env");
        String failing = record("api-setup") + "; echo api broke >&2; exit 4";
        try (SessionHarness factory = new SessionHarness(state)) {
            assertThatThrownBy(() -> factory.open(spec(failing)))
                    .isInstanceOf(SetupCommandException.class)
                    .hasMessageStartingWith("The setup of 'api' failed (the other repositories' setup ran); Setup command failed (exit 4): api broke.");
            assertThat(runs()).containsExactly("web-setup-in-web", "api-setup-in-api");
            assertThat(root.resolve(".mastra-sandbox/setup-failed")).hasContent("api");
            assertThat(root.resolve(".mastra-sandbox/repos/web")).exists();
            assertThat(root.resolve(".mastra-sandbox/repos/api")).doesNotExist();
            assertThat(root.resolve(".mastra-sandbox/workspace-setup")).doesNotExist();

            // Next start: the failed command is skipped, the workspace setup now runs.
            factory.opener.session("env").orElseThrow().awaitStarted();
            assertThat(runs()).containsExactly("web-setup-in-web", "api-setup-in-api", "workspace-setup-in-env");
        }
        // A fixed command runs and takes the repository off the failed list.
        try (SessionHarness factory = new SessionHarness(state)) {
            factory.open(spec(record("api-setup-fixed")));
            assertThat(runs()).last().isEqualTo("api-setup-fixed-in-api");
            assertThat(root.resolve(".mastra-sandbox/setup-failed")).doesNotExist();
        }
    }
}
