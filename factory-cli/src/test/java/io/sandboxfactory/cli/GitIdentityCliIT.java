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

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The git identity of commits in sessions, as a user sets and sees it: {@code factory config} names
 * each part's value and source (a variable, or the host user's {@code git config --global}, here a
 * file of the test's through {@code GIT_CONFIG_GLOBAL}); a commit through {@code factory exec} in a
 * local session isolated by bubblewrap carries it; a value with a line break is refused. With the
 * factory daemon off and on.
 */
@ParameterizedClass(name = "daemon {0}")
@EnumSource(DaemonMode.class)
class GitIdentityCliIT {

    @Parameter
    DaemonMode mode;

    @TempDir
    Path temp;

    Path state;
    Path bare;
    CliProcess cli;

    @BeforeEach
    void setUp() throws Exception {
        state = temp.resolve("state");
        bare = GitRepos.bareWithMain(temp, "app");
        Path hostGitconfig = Files.writeString(temp.resolve("host.gitconfig"), "[user]\n\tname = Host User\n\temail = host@example.org\n");
        cli = mode.cli(state).in(temp).env("GIT_CONFIG_GLOBAL", hostGitconfig.toString()).env("FACTORY_GIT_USER_NAME", "Night Agent");
    }

    @AfterEach
    void stopDaemons() throws Exception {
        new Daemons(state).stop();
    }

    @Test
    void configShowsEachPartWithItsSourceAndACommitThroughExecCarriesThem() {
        CliProcess.Result config = cli.run("config");
        assertThat(config.exitCode()).as(config.toString()).isZero();
        assertThat(config.stdout()).containsPattern("(?m)^git\\.user\\.name +=  ?Night Agent  \\(environment FACTORY_GIT_USER_NAME\\)$");
        assertThat(config.stdout()).containsPattern("(?m)^git\\.user\\.email +=  ?host@example\\.org  \\(default: git config --global of the user"
                + " running the factory\\)$");

        CliProcess.Result open = cli.run("open", "g1", "--repo", bare.toString(), "--branch", "work");
        assertThat(open.exitCode()).as(open.toString()).isZero();
        CliProcess.Result commit = cli.run("exec", "g1", "--", "sh", "-c", "git commit -q --allow-empty -m work"
                + " && git log -1 --format='%an <%ae>|%cn <%ce>'");
        assertThat(commit.exitCode()).as(commit.toString()).isZero();
        assertThat(commit.stdout().strip()).isEqualTo("Night Agent <host@example.org>|Night Agent <host@example.org>");
    }

    @Test
    void aValueWithALineBreakIsRefusedNamingKeyValueAndRule() {
        CliProcess.Result result = cli.env("FACTORY_GIT_USER_EMAIL", "a@example.org\nb").run("open", "g2", "--repo", bare.toString(),
                "--branch", "work");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.stderr()).contains("Invalid value 'a@example.org\\nb' for configuration key 'git.user.email' from environment"
                + " variable FACTORY_GIT_USER_EMAIL; it must be one non-blank line without NUL, '<' or '>'.");
        assertThat(cli.run("list").stdout()).doesNotContain("g2");
    }
}
