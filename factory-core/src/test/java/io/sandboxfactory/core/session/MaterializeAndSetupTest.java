package io.sandboxfactory.core.session;

import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.MastraSandbox;
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

class MaterializeAndSetupTest {

    @TempDir
    Path tmp;
    Path remote;
    Path state;
    Path setupLog;

    @BeforeEach
    void fixtures() throws IOException {
        remote = Git.bareRepository(tmp.resolve("remote/project.git"));
        state = tmp.resolve("state");
        setupLog = tmp.resolve("setup.log");
    }

    private SessionSpec spec(String setup) {
        return SessionSpec.builder("s1").repository(remote.toUri().toString()).branch("feature/one").baseBranch("main")
                .setupCommands(setup).build();
    }

    private String setupCommand(String word) {
        return "echo " + word + " >> '" + setupLog + "'";
    }

    private List<String> setupRuns() throws IOException {
        return Files.exists(setupLog) ? Files.readAllLines(setupLog) : List.of();
    }

    @Test
    void freshOpenClonesAndBranchesThenLaterOpensReuseTheCheckoutAndGateTheSetup() throws Exception {
        Path checkout;
        try (SessionHarness factory = new SessionHarness(state)) {
            MastraSandbox<?> sandbox = factory.open(spec(setupCommand("first"))).sandbox();
            checkout = factory.sessionDirectory("s1").resolve("project");
            assertThat(Git.run(checkout, "symbolic-ref", "--short", "HEAD")).isEqualTo("feature/one");
            assertThat(Git.revParse(checkout, "HEAD")).isEqualTo(Git.revParse(remote, "main"));
            assertThat(Git.run(checkout, "config", "--get", "remote.origin.url")).isEqualTo(remote.toUri().toString());
            assertThat(setupRuns()).containsExactly("first");
            assertThat(factory.sessionDirectory("s1").resolve(".mastra-sandbox/setup")).content().startsWith("sha256:");
            CommandResult pwd = sandbox.executeCommand("pwd");
            assertThat(pwd.stdout().strip()).isEqualTo(factory.sessionDirectory("s1").toString());
            var record = factory.store.find("s1").orElseThrow();
            assertThat(record.sandboxId()).contains(factory.sessionDirectory("s1").toString());
            assertThat(record.workdir()).contains(factory.sessionDirectory("s1").toString());
            assertThat(record.materializedAt()).isPresent();
            Files.writeString(checkout.resolve("work-in-progress.txt"), "uncommitted\n");
            sandbox.stop();
        }

        // A new factory (new instances, same state directory): the checkout is kept, setup is not rerun.
        try (SessionHarness factory = new SessionHarness(state)) {
            factory.open(spec(setupCommand("first")));
            assertThat(setupRuns()).containsExactly("first");
            assertThat(checkout.resolve("work-in-progress.txt")).hasContent("uncommitted");
            assertThat(factory.listener.commands()).noneMatch(c -> c.contains(" clone "));
        }

        // An edited setup command runs again.
        try (SessionHarness factory = new SessionHarness(state)) {
            factory.open(spec(setupCommand("second")));
            assertThat(setupRuns()).containsExactly("first", "second");
        }

        // A wiped checkout reads as "not done": clone and setup again.
        deleteTree(checkout);
        try (SessionHarness factory = new SessionHarness(state)) {
            factory.open(spec(setupCommand("second")));
            assertThat(setupRuns()).containsExactly("first", "second", "second");
            assertThat(Git.run(checkout, "symbolic-ref", "--short", "HEAD")).isEqualTo("feature/one");
        }
    }

    static void deleteTree(Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
