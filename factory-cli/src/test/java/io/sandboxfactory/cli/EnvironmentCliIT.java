package io.sandboxfactory.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Multi-repository environments through the real jar: opened in one process, used and retired in
 * others, with real git and bare repositories on the local provider, the daemon off and on.
 */
@ParameterizedClass(name = "daemon {0}")
@EnumSource(DaemonMode.class)
class EnvironmentCliIT {

    @Parameter
    DaemonMode mode;

    @TempDir
    Path temp;

    Path state;
    Path api;
    Path ui;
    Path log;
    CliProcess cli;

    @BeforeEach
    void setUp() throws Exception {
        state = temp.resolve("state");
        api = GitRepos.bareWithTrunk(temp, "api");
        ui = GitRepos.bareWithMain(temp, "ui");
        // The setups and teardowns log to a file of the test's: a directory the sessions see as a volume.
        Path logs = Files.createDirectories(temp.resolve("logs"));
        log = logs.resolve("log");
        cli = mode.cli(state).in(temp).env("FACTORY_PROVIDERS_LOCAL_VOLUMES", "[" + logs + "]");
    }

    @AfterEach
    void stopDaemons() throws Exception {
        new Daemons(state).stop();
    }

    /** A command that logs {@code word} and the directory it ran in. */
    private String logs(String word) {
        return "echo " + word + "@$(basename \"$PWD\") >> '" + log + "'";
    }

    private List<String> logged() throws Exception {
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    private String[] openEnv1() {
        return new String[] {"open", "env1", "--branch", "feat",
                "--repo", api.toString(), "--setup", logs("api-setup"), "--teardown", logs("api-teardown"),
                "--repo", ui.toString(), "--dir", "frontend", "--setup", logs("ui-setup"), "--teardown", logs("ui-teardown"),
                "--workspace-setup", logs("workspace-setup"), "--workspace-teardown", logs("workspace-teardown")};
    }

    @Test
    void anEnvironmentOpenedInOneProcessIsUsedAndRetiredWholeByOthers() throws Exception {
        CliProcess.Result open = cli.run(openEnv1());
        assertThat(open.exitCode()).as(open.toString()).isZero();
        assertThat(logged()).containsExactly("api-setup@api", "ui-setup@frontend", "workspace-setup@env1");

        CliProcess.Result primary = cli.run("exec", "env1", "--", "sh", "-c", "basename \"$PWD\"; git rev-parse --abbrev-ref HEAD; cat TRUNK.md");
        assertThat(primary.stdout()).as(primary.toString()).isEqualTo("api\nfeat\non trunk\n");
        CliProcess.Result frontend = cli.run("exec", "env1", "--workdir", "frontend", "--", "sh", "-c",
                "basename \"$PWD\"; git rev-parse --abbrev-ref HEAD; cat README.md");
        assertThat(frontend.stdout()).as(frontend.toString()).isEqualTo("frontend\nfeat\nhello from ui\n");
        CliProcess.Result outside = cli.run("exec", "env1", "--workdir", "../..", "--", "true");
        assertThat(outside.exitCode()).as(outside.toString()).isEqualTo(ExitCodes.BAD_INPUT);

        assertThat(cli.run("cat", "env1:frontend/README.md").stdout()).isEqualTo("hello from ui\n");
        assertThat(cli.run("ls", "env1").stdout().lines().toList()).contains("api/", "frontend/");
        JsonNode status = new ObjectMapper().readTree(cli.run("--json", "status", "env1").stdout());
        List<String> repos = new ArrayList<>();
        status.get("repositories").forEach(r -> repos.add(r.get("dir").asText() + " " + r.get("branch").asText() + " " + r.get("setup").asText()));
        assertThat(repos).containsExactly("api feat done", "frontend feat done");

        CliProcess.Result again = cli.run(openEnv1());
        assertThat(again.exitCode()).as(again.toString()).isZero();
        assertThat(logged()).as("a second open reruns nothing").hasSize(3);

        CliProcess.Result retire = cli.run("retire", "env1");
        assertThat(retire.exitCode()).as(retire.toString()).isZero();
        assertThat(logged().subList(3, logged().size())).containsExactly("api-teardown@api", "ui-teardown@frontend", "workspace-teardown@env1");
    }

    @Test
    void aFailedSetupIsNamedAndAFailedOpenLeavesNothingWhileAFailedReopenLeavesTheSessionAsItWas() throws Exception {
        String[] failing = {"open", "env3", "--branch", "b", "--repo", api.toString(), "--setup", logs("api-setup"),
                "--repo", ui.toString(), "--dir", "frontend", "--setup", "exit 9"};
        String[] fixed = {"open", "env3", "--branch", "b", "--repo", api.toString(), "--setup", logs("api-setup"),
                "--repo", ui.toString(), "--dir", "frontend", "--setup", logs("ui-setup")};

        CliProcess.Result failed = cli.run(failing);
        assertThat(failed.exitCode()).as(failed.toString()).isEqualTo(ExitCodes.INFRASTRUCTURE);
        assertThat(failed.stderr()).contains("The setup of 'frontend' failed (the other repositories' setup ran)");
        assertThat(cli.run("status", "env3").exitCode()).as("no session after a failed first open").isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(cli.run("list").stdout()).doesNotContain("env3");
        assertThat(state.resolve("sessions/env3")).doesNotExist();

        CliProcess.Result repaired = cli.run(fixed);
        assertThat(repaired.exitCode()).as(repaired.toString()).isZero();
        assertThat(logged()).as("the fixed open starts afresh").containsExactly("api-setup@api", "api-setup@api", "ui-setup@frontend");
        assertThat(cli.run("exec", "env3", "--", "sh", "-c", "echo kept > work.txt").exitCode()).isZero();

        CliProcess.Result failedReopen = cli.run(failing);
        assertThat(failedReopen.exitCode()).as(failedReopen.toString()).isEqualTo(ExitCodes.INFRASTRUCTURE);
        CliProcess.Result work = cli.run("exec", "env3", "--", "cat", "work.txt");
        assertThat(work.stdout()).as("a failed reopen keeps the session and its work; " + work).isEqualTo("kept\n");
        assertThat(cli.run("list").stdout()).contains("env3");
    }

    @Test
    void aConfiguredEnvironmentOpensByName() throws Exception {
        Path config = Files.writeString(temp.resolve("factory.yaml"), """
                environments:
                  web:
                    repos:
                      - {repo: "%1$s", setup: "echo api-setup >> %3$s"}
                      - {repo: "%2$s", dir: frontend}
                    setup: "echo workspace-setup >> %3$s"
                """.formatted(api, ui, log));

        CliProcess.Result open = cli.run("--config", config.toString(), "open", "env2", "--environment", "web", "--branch", "b");
        CliProcess.Result frontend = cli.run("--config", config.toString(), "exec", "env2", "--workdir", "frontend", "--", "cat", "README.md");

        assertThat(open.exitCode()).as(open.toString()).isZero();
        assertThat(frontend.stdout()).as(frontend.toString()).isEqualTo("hello from ui\n");
        assertThat(logged()).containsExactly("api-setup", "workspace-setup");
    }

    @Test
    void badEnvironmentsAreBadInputAndCreateNothing() throws Exception {
        CliProcess.Result sameDir = cli.run("open", "dup", "--branch", "b", "--repo", api.toString(), "--dir", "x",
                "--repo", ui.toString(), "--dir", "x");
        CliProcess.Result unknown = cli.run("open", "unk", "--branch", "b", "--environment", "nope");
        CliProcess.Result both = cli.run("open", "both", "--branch", "b", "--environment", "nope", "--repo", api.toString());
        CliProcess.Result none = cli.run("open", "none", "--branch", "b");

        assertThat(sameDir.exitCode()).as(sameDir.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(sameDir.stderr()).contains("would both be checked out in directory 'x'");
        assertThat(unknown.exitCode()).as(unknown.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(unknown.stderr()).contains("Unknown environment 'nope'; configured: [].");
        assertThat(both.exitCode()).as(both.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(none.exitCode()).as(none.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        Path sessions = state.resolve("sessions");
        assertThat(Files.exists(sessions) ? sessions.toFile().list() : new String[0]).filteredOn(n -> !n.startsWith(".")).isEmpty();
        assertThat(cli.run("list").stdout()).doesNotContain("dup").doesNotContain("unk");
    }
}
