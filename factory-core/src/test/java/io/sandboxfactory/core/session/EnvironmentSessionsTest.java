package io.sandboxfactory.core.session;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.config.EnvironmentConfig;
import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.files.SandboxFilesystem;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.store.api.SessionRecord;
import io.sandboxfactory.core.testing.Git;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Multi-repository environments through the factory, as a host uses them, with the real local
 * provider, real git and the SQLite store; "a later process" is a second factory on the same state.
 */
class EnvironmentSessionsTest {

    @TempDir
    Path tmp;
    Path api;
    Path ui;
    Path state;
    Path log;

    @BeforeEach
    void fixtures() throws IOException {
        api = Git.bareRepository(tmp.resolve("remotes/api.git"), "trunk");
        Git.run(api, "symbolic-ref", "HEAD", "refs/heads/trunk");
        ui = Git.bareRepository(tmp.resolve("remotes/ui.git"));
        state = tmp.resolve("state");
        log = tmp.resolve("log");
    }

    private SandboxFactory factory() {
        return SandboxFactory.builder().provider("local").environment(Map.of("FACTORY_PROVIDERS_LOCAL_VOLUMES", "[" + tmp + "]")).stateDirectory(state).build();
    }

    /** A command that appends {@code word} and the directory it ran in to the log. */
    private String logs(String word) {
        return "echo " + word + "@$(basename \"$PWD\") >> '" + log + "'";
    }

    private List<String> logged() throws IOException {
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    private SessionEnvironment environment(String uiSetup) {
        return new SessionEnvironment(List.of(
                new EnvironmentRepository(api.toString(), Optional.empty(), Optional.empty(), List.of(logs("api-setup")),
                        List.of(logs("api-teardown"), "exit 5"), Optional.empty()),
                new EnvironmentRepository(ui.toString(), Optional.of("frontend"), Optional.empty(), List.of(uiSetup),
                        List.of(logs("ui-teardown")), Optional.empty())),
                List.of(logs("workspace-setup")), List.of(logs("workspace-teardown")), List.of());
    }

    private SessionSpec spec(String uiSetup) {
        return SessionSpec.builder("env").branch("feature").environment(environment(uiSetup)).build();
    }

    @Test
    void everyRepositoryGetsTheBranchFromItsOwnBaseAndEachSetupRunsOnceUntilItChanges() throws IOException {
        Path root = state.resolve("sessions/env");
        try (SandboxFactory factory = factory()) {
            factory.openSession(spec(logs("ui-setup")));
            assertThat(logged()).containsExactly("api-setup@api", "ui-setup@frontend", "workspace-setup@env");
            assertThat(Git.run(root.resolve("api"), "rev-parse", "--abbrev-ref", "HEAD")).isEqualTo("feature");
            assertThat(Git.run(root.resolve("frontend"), "rev-parse", "--abbrev-ref", "HEAD")).isEqualTo("feature");
            assertThat(Git.revParse(root.resolve("api"), "HEAD")).as("api's own default branch").isEqualTo(Git.revParse(api, "trunk"));
            assertThat(Git.revParse(root.resolve("frontend"), "HEAD")).isEqualTo(Git.revParse(ui, "main"));

            factory.openSession(spec(logs("ui-setup")));
            assertThat(logged()).as("a second open reruns nothing").hasSize(3);

            factory.openSession(spec(logs("ui-setup-2")));
            assertThat(logged()).as("only the changed repository's setup runs").containsExactly("api-setup@api", "ui-setup@frontend",
                    "workspace-setup@env", "ui-setup-2@frontend");
        }
    }

    @Test
    void aLaterProcessRebuildsExactlyTheEnvironmentAndRetiresItRepositoryByRepository() throws IOException {
        try (SandboxFactory opener = factory()) {
            opener.openSession(spec(logs("ui-setup")));
        }
        try (SandboxFactory later = factory()) {
            SessionRecord record = later.sessionStore().find("env").orElseThrow();
            assertThat(record.definition().environment()).isPresent();
            assertThat(record.definition().environment().get().repositories()).extracting(r -> r.dir() + "=" + r.repository())
                    .containsExactly("api=" + api, "frontend=" + ui);
            assertThat(record.definition().environment().get().workspaceTeardown()).containsExactly(logs("workspace-teardown"));
            assertThat(record.definition().setupCommands()).as("the workspace setup is not the session's own").isEmpty();
            assertThat(record.setupStates()).containsExactly(Map.entry("api", "done"), Map.entry("frontend", "done"));

            SessionHandle resumed = later.openSession(SessionSpec.resume(record.definition()).build()).awaitStarted();
            String pwd = resumed.executeCommand("pwd", List.of(), CommandOptions.builder().cwd(resumed.checkout().orElseThrow()).build())
                    .stdout().strip();
            assertThat(pwd).as("commands run in the primary checkout").endsWith("/env/api");
            assertThat(SandboxFilesystem.forSession(resumed).list("")).extracting(f -> f.name()).contains("api", "frontend");
            assertThat(SandboxFilesystem.forSession(resumed).readText("frontend/README.md")).isEqualTo("# fixture\n");
            assertThat(logged()).as("nothing ran again").hasSize(3);
        }
        try (SandboxFactory retirer = factory()) {
            retirer.retire("env", RetireMode.STOP);
        }
        assertThat(logged().subList(3, logged().size())).as("in position order, each in its own directory, a failure does not stop the next")
                .containsExactly("api-teardown@api", "ui-teardown@frontend", "workspace-teardown@env");
    }

    @Test
    void aFailedRepositorySetupIsNamedTheOthersStillRunAndTheFailedOpenLeavesNothing() throws IOException {
        try (SandboxFactory factory = factory()) {
            assertThatThrownBy(() -> factory.openSession(spec("exit 7")))
                    .isInstanceOf(SetupCommandException.class)
                    .hasMessageStartingWith("The setup of 'frontend' failed (the other repositories' setup ran); Setup command failed (exit 7)");
            // Undone as retire --delete does it: the teardowns run, so what a setup started is stopped.
            assertThat(logged()).containsExactly("api-setup@api", "api-teardown@api", "ui-teardown@frontend", "workspace-teardown@env");
            assertThat(factory.sessionStore().find("env")).as("a failed first open leaves no session").isEmpty();

            assertThatThrownBy(() -> factory.openSession(spec("exit 7"))).isInstanceOf(SetupCommandException.class);
            assertThat(logged().stream().filter("api-setup@api"::equals)).as("the next open starts afresh").hasSize(2);
        }
    }

    @Test
    void aConfiguredEnvironmentOpensByNameAndBadEnvironmentsFailBeforeAnythingIsCreated() throws IOException {
        EnvironmentConfig web = new EnvironmentConfig(List.of(new EnvironmentConfig.Repo(api.toString(), null, null, List.of(), List.of()),
                new EnvironmentConfig.Repo(ui.toString(), "frontend", null, List.of(), List.of())), List.of(), List.of(), null);
        FactoryConfig config = FactoryConfig.builder().environment("web", web).build();
        try (SandboxFactory factory = SandboxFactory.builder().provider("local").environment(Map.of("FACTORY_PROVIDERS_LOCAL_VOLUMES", "[" + tmp + "]")).stateDirectory(state)
                .config(config).build()) {
            SessionHandle handle = factory.openSession(SessionSpec.builder("named").branch("b").environment(factory.environment("web")).build());
            assertThat(handle.layout().orElseThrow().repositories()).extracting(SessionLayout.Checkout::repoDir).containsExactly("api", "frontend");

            assertThatThrownBy(() -> factory.environment("nope")).hasMessage("Unknown environment 'nope'; configured: [web].");
        }
        assertThatThrownBy(() -> new EnvironmentConfig(List.of(new EnvironmentConfig.Repo(api.toString(), "same", null, null, null),
                new EnvironmentConfig.Repo(ui.toString(), "same", null, null, null)), null, null, null))
                .hasMessageContaining("would both be checked out in directory 'same'");
        assertThatThrownBy(() -> new EnvironmentConfig(List.of(), null, null, null)).hasMessageContaining("needs at least one repository");
        assertThatThrownBy(() -> new EnvironmentRepository(api.toString(), Optional.of("../up"), Optional.empty(), List.of(), List.of(),
                Optional.empty())).hasMessageContaining("Directory '../up' of repository");
        assertThat(state.resolve("sessions").toFile().list()).filteredOn(name -> !name.startsWith(".")).containsExactly("named");
    }
}
