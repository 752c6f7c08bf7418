package io.sandboxfactory.core.docker;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.config.ConfigValue;
import io.sandboxfactory.core.config.GitConfig;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.testing.RequiresDocker;
import io.sandboxfactory.provider.docker.DockerProviderConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A commit in a Docker session (image {@value DockerProviderConfig#DEFAULT_IMAGE}, whose user has
 * no git identity of its own; network none) carries the factory's git identity: the configured one,
 * and without configuration the default {@code factory config} shows — never "Author identity unknown".
 */
@ExtendWith(RequiresDocker.class)
class DockerGitIdentityIT {

    private static final String COMMIT_AND_SHOW = "git commit -q --allow-empty -m work && git log -1 --format='%an <%ae>|%cn <%ce>'";

    @TempDir
    Path tmp;
    DockerSessionRig rig;

    @BeforeEach
    void rig() throws IOException {
        rig = new DockerSessionRig(tmp);
    }

    @AfterEach
    void cleanUp() {
        rig.close();
    }

    private String commitIn(SandboxFactory factory, String hint) {
        SessionHandle session = factory.openSession(rig.spec(rig.sessionId(hint)).build());
        String checkout = session.layout().orElseThrow().repositories().get(0).path();
        CommandResult result = session.executeCommand(COMMIT_AND_SHOW, List.of(), CommandOptions.builder().cwd(checkout).build());
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        return result.stdout().strip();
    }

    @Test
    void aCommitCarriesTheConfiguredIdentity() {
        assertThat(commitIn(rig.factory(GitConfig.of("Night Agent", "agent@example.org")), "configured"))
                .isEqualTo("Night Agent <agent@example.org>|Night Agent <agent@example.org>");
    }

    @Test
    void withoutConfigurationACommitCarriesTheDefaultIdentity() {
        List<ConfigValue> values = rig.builder(GitConfig.defaults()).effectiveConfig(key -> key).values();
        String name = values.stream().filter(v -> v.key().equals("git.user.name")).findFirst().orElseThrow().value().toString();
        String email = values.stream().filter(v -> v.key().equals("git.user.email")).findFirst().orElseThrow().value().toString();

        assertThat(commitIn(rig.factory(GitConfig.defaults()), "default")).isEqualTo(name + " <" + email + ">|" + name + " <" + email + ">");
    }
}
