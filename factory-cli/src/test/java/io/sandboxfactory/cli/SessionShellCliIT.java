package io.sandboxfactory.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code factory shell} through the real jar on the local provider: on a pseudo-terminal (under
 * {@code script}, as at a user's terminal) and with commands piped to stdin.
 */
class SessionShellCliIT {

    @TempDir
    Path temp;

    CliProcess cli;
    Path checkout;

    @BeforeEach
    void open() throws Exception {
        Path bare = GitRepos.bareWithMain(temp, "app");
        java.nio.file.Files.writeString(temp.resolve("factory.yaml"), "providers:\n  local:\n    env: {SESSION_VAR: from-config}\n");
        cli = new CliProcess(temp.resolve("state")).in(temp).env("SHELL", "/bin/sh").env("HOST_ONLY", "leaked");
        CliProcess.Result open = cli.run("--quiet", "open", "sh1", "--repo", bare.toString(), "--branch", "feature/sh");
        assertThat(open.exitCode()).as(open.toString()).isZero();
        checkout = temp.resolve("state/sessions/sh1/app");
    }

    @Test
    void withAPipeTheShellRunsTheCommandsOnStdinInTheCheckoutAndExitsWithTheirCode() {
        CliProcess.Result shell = cli.runWithInput("pwd; git rev-parse --abbrev-ref HEAD; test -t 0 || echo no-terminal;"
                + " echo \"$SESSION_VAR/${HOST_ONLY:-not-passed}\"; exit 5\n", "shell", "sh1");

        assertThat(shell.exitCode()).as(shell.toString()).isEqualTo(5);
        assertThat(shell.stdout().lines()).containsExactly(checkout.toString(), "feature/sh", "no-terminal", "from-config/not-passed");
    }

    @Test
    void onATerminalTheShellIsInteractiveOnThatTerminal() {
        // The terminal echoes what is typed: only the shell's own arithmetic proves it ran the line.
        CliProcess.Result shell = cli.runOnTerminal("test -t 0 && echo \"terminal-$((6*7))\"; echo \"in-$(basename \"$PWD\")\"\nexit 3\n",
                "shell", "sh1");

        assertThat(shell.exitCode()).as(shell.toString()).isEqualTo(3);
        assertThat(shell.stdout()).contains("terminal-42").contains("in-app");
    }

    /** The shell is a process of the session like its commands: inside its boundary (issue 43), attacked from there. */
    @Test
    void theShellRunsInsideTheSessionsBoundary() throws Exception {
        String isolation = new ObjectMapper().readTree(cli.run("--json", "status", "sh1").stdout()).get("isolation").asText();
        Assumptions.assumeTrue(isolation.equals("namespaces") || !"true".equals(System.getenv("CI")),
                "CI=true needs bubblewrap: the local provider runs with isolation " + isolation);
        Assumptions.assumeTrue(isolation.equals("namespaces"), "no working bwrap here: the local provider runs without isolation");
        Path hostFile = temp.resolve("factory.yaml");
        Path store = temp.resolve("state/sessions.db");

        CliProcess.Result shell = cli.runWithInput("hostname; cat '" + hostFile + "' || echo host-file-hidden;"
                + " test -e '" + store + "' && echo sees-the-store || echo store-hidden; echo x > '" + temp.resolve("planted") + "'\n",
                "shell", "sh1");

        assertThat(shell.stdout().lines()).as(shell.toString()).containsExactly("sandbox", "host-file-hidden", "store-hidden");
        assertThat(temp.resolve("planted")).as("a file the shell wrote at a host path").doesNotExist();
    }

    @Test
    void anUnknownSessionIsBadInput() {
        CliProcess.Result shell = cli.runWithInput("exit 0\n", "shell", "nobody");
        assertThat(shell.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(shell.stderr()).contains("Session 'nobody' is not known");
    }
}
