package io.sandboxfactory.cli;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code factory template} and {@code open --no-template} as users run them: the real jar, real
 * git on a bare repository, the local provider; with the factory daemon off and on.
 */
@ParameterizedClass(name = "daemon {0}")
@EnumSource(DaemonMode.class)
class TemplateCliIT {

    @Parameter
    DaemonMode mode;

    @TempDir
    Path temp;

    Path state;
    Path bare;
    Path setupLog;
    CliProcess cli;

    @BeforeEach
    void setUp() throws Exception {
        state = temp.resolve("state");
        bare = GitRepos.bareWithMain(temp, "app");
        // The setup logs to a file of the test's: a directory the sessions see as a volume.
        Path logs = Files.createDirectories(temp.resolve("logs"));
        setupLog = logs.resolve("setup.log");
        cli = mode.cli(state).in(temp).env("FACTORY_PROVIDERS_LOCAL_VOLUMES", "[" + logs + "]");
    }

    @AfterEach
    void stopDaemons() throws Exception {
        new Daemons(state).stop();
    }

    private String setup() {
        return "echo ran >> '" + setupLog + "' && echo built > built.txt";
    }

    private List<String> setupRuns() throws Exception {
        return Files.exists(setupLog) ? Files.readAllLines(setupLog) : List.of();
    }

    @Test
    void aBuiltTemplateServesTheNextOpenUnlessToldNotToAndIsListedRemovedAndPruned() throws Exception {
        CliProcess.Result build = cli.run("template", "build", "--repo", bare.toString(), "--setup", setup());
        assertThat(build.exitCode()).as(build.toString()).isZero();
        String name = build.stdout().strip();
        assertThat(name).matches("t[0-9a-f]{16}-[0-9a-z]+");
        assertThat(setupRuns()).containsExactly("ran");

        CliProcess.Result list = cli.run("--json", "template", "list");
        assertThat(list.exitCode()).as(list.toString()).isZero();
        assertThat(list.stdout()).contains("\"name\" : \"" + name + "\"").contains("\"repository\" : \"" + bare + "\"");

        CliProcess.Result open = cli.run("--json", "open", "s1", "--repo", bare.toString(), "--branch", "work", "--setup", setup());
        assertThat(open.exitCode()).as(open.toString()).isZero();
        assertThat(open.stdout()).contains("\"template\" : \"" + name + "\"");
        assertThat(setupRuns()).as("the template carried the setup").containsExactly("ran");
        CliProcess.Result exec = cli.run("exec", "s1", "--", "sh", "-c", "cat built.txt; git rev-parse --abbrev-ref HEAD");
        assertThat(exec.stdout()).as(exec.toString()).isEqualTo("built\nwork\n");

        CliProcess.Result plain = cli.run("--json", "open", "s2", "--repo", bare.toString(), "--branch", "work", "--setup", setup(),
                "--no-template");
        assertThat(plain.exitCode()).as(plain.toString()).isZero();
        assertThat(plain.stdout()).contains("\"template\" : null");
        assertThat(setupRuns()).containsExactly("ran", "ran");

        CliProcess.Result keep = cli.run("--json", "template", "prune", "--older-than", "1d");
        assertThat(keep.stdout()).as(keep.toString()).doesNotContain(name);
        CliProcess.Result prune = cli.run("--json", "template", "prune", "--older-than", "0s");
        assertThat(prune.exitCode()).as(prune.toString()).isZero();
        assertThat(prune.stdout()).contains(name);
        assertThat(cli.run("template", "list").stdout()).doesNotContain(name);
    }

    @Test
    void rmRemovesByNameAndABadNameIsRefusedWithExit2() {
        String name = cli.run("template", "build", "--repo", bare.toString()).stdout().strip();

        CliProcess.Result bad = cli.run("template", "rm", "../" + name);
        assertThat(bad.exitCode()).as(bad.toString()).isEqualTo(2);
        assertThat(bad.stderr()).contains("'../" + name + "' is invalid");
        assertThat(cli.run("template", "list").stdout()).contains(name);

        CliProcess.Result rm = cli.run("template", "rm", name);
        assertThat(rm.exitCode()).as(rm.toString()).isZero();
        assertThat(cli.run("template", "list").stdout()).doesNotContain(name);
    }

    @Test
    void anEnvironmentTemplateIsBuiltByNameAndServesTheEnvironmentsOpens() throws Exception {
        Path ui = GitRepos.bareWithMain(temp, "ui");
        Path config = Files.writeString(temp.resolve("factory.yaml"), """
                environments:
                  web:
                    repos:
                      - {repo: "%s", dir: api, setup: "%s"}
                      - {repo: "%s", dir: ui}
                """.formatted(bare, setup(), ui));
        CliProcess.Result build = cli.run("--config", config.toString(), "template", "build", "--environment", "web");
        assertThat(build.exitCode()).as(build.toString()).isZero();
        String name = build.stdout().strip();
        assertThat(setupRuns()).containsExactly("ran");

        CliProcess.Result open = cli.run("--config", config.toString(), "--json", "open", "w1", "--environment", "web", "--branch", "work");
        assertThat(open.exitCode()).as(open.toString()).isZero();
        assertThat(open.stdout()).contains("\"template\" : \"" + name + "\"");
        assertThat(setupRuns()).containsExactly("ran");
        CliProcess.Result exec = cli.run("exec", "w1", "--", "sh", "-c", "cat built.txt; git rev-parse --abbrev-ref HEAD");
        assertThat(exec.stdout()).as(exec.toString()).isEqualTo("built\nwork\n");
    }

    @Test
    void templateBuildWantsExactlyOneOfRepoAndEnvironment() throws Exception {
        Path config = Files.writeString(temp.resolve("factory.yaml"), """
                environments:
                  web:
                    repos:
                      - {repo: "%s"}
                """.formatted(bare));
        CliProcess.Result neither = cli.run("--config", config.toString(), "template", "build");
        assertThat(neither.exitCode()).as(neither.toString()).isEqualTo(2);
        assertThat(neither.stderr()).contains("either --repo R or --environment NAME, not neither");
        CliProcess.Result both = cli.run("--config", config.toString(), "template", "build", "--repo", bare.toString(), "--environment", "web");
        assertThat(both.exitCode()).as(both.toString()).isEqualTo(2);
        assertThat(both.stderr()).contains("not both");
        CliProcess.Result setup = cli.run("--config", config.toString(), "template", "build", "--environment", "web", "--setup", "true");
        assertThat(setup.exitCode()).as(setup.toString()).isEqualTo(2);
        assertThat(setup.stderr()).contains("--setup does not go with --environment web");
        CliProcess.Result unknown = cli.run("--config", config.toString(), "template", "build", "--environment", "nope");
        assertThat(unknown.exitCode()).as(unknown.toString()).isEqualTo(2);
        assertThat(unknown.stderr()).contains("Unknown environment 'nope'");
        assertThat(cli.run("--config", config.toString(), "template", "list").stdout()).isBlank();
    }
}
