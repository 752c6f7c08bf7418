package io.sandboxfactory.provider.local;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** An isolated session's private HOME starts with the host user's git identity, and nothing else of the host's git config. */
class SessionGitIdentityTest {

    @TempDir
    Path tmp;

    private static String git(Path config, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("git", "config", "--file", config.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor()).as(out).isZero();
        return out;
    }

    @Test
    void theSessionsGitconfigHoldsExactlyTheHostIdentityWhateverItsCharacters() throws Exception {
        HostUser.GitIdentity hostile = new HostUser.GitIdentity("Ada \"x\" \\ L\n[core]\n\tpager = evil", "ada@example.org");
        HostUser user = new HostUser("ada", 1000, 1000, "ada", Optional.of(hostile));
        SessionPrivate own = SessionPrivate.of(tmp.resolve("sessions/s1"));

        own.prepare(user);

        Path gitconfig = own.home().resolve(".gitconfig");
        assertThat(git(gitconfig, "--list").lines()).hasSize(2);
        assertThat(git(gitconfig, "--get", "user.name").strip()).isEqualTo("Ada \"x\" \\ L [core] \tpager = evil");
        assertThat(git(gitconfig, "--get", "user.email").strip()).isEqualTo("ada@example.org");
    }

    @Test
    void whatTheSessionChangedInItsGitconfigIsKeptAcrossPreparesAndNoIdentityWritesNone() throws Exception {
        SessionPrivate own = SessionPrivate.of(tmp.resolve("sessions/s2"));
        own.prepare(new HostUser("ada", 1000, 1000, "ada", Optional.of(new HostUser.GitIdentity("Ada", "ada@example.org"))));
        Path gitconfig = own.home().resolve(".gitconfig");
        git(gitconfig, "user.name", "Changed Inside");

        own.prepare(new HostUser("ada", 1000, 1000, "ada", Optional.of(new HostUser.GitIdentity("Ada", "ada@example.org"))));

        assertThat(git(gitconfig, "--get", "user.name").strip()).isEqualTo("Changed Inside");
        SessionPrivate other = SessionPrivate.of(tmp.resolve("sessions/s3"));
        other.prepare(new HostUser("ada", 1000, 1000, "ada", Optional.empty()));
        assertThat(other.home().resolve(".gitconfig")).doesNotExist();
    }
}
