package io.sandboxfactory.core.session;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.core.testing.SessionHarness;
import io.sandboxfactory.api.testing.TestProviderContext;
import io.sandboxfactory.provider.local.LocalProviderConfig;
import io.sandboxfactory.provider.local.LocalSandboxProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GitMissingTest {

    @TempDir
    Path tmp;

    @Test
    void aSandboxWithoutGitFailsWithGitMissingAndNothingIsRecorded() throws Exception {
        Path remote = Git.bareRepository(tmp.resolve("remote/app.git"));
        Path state = tmp.resolve("state");
        LocalProviderConfig noGit = new LocalProviderConfig(state.resolve("sessions").toString(), null, null,
                Map.of("PATH", tmp.resolve("empty-bin").toString()));
        try (SessionHarness factory = new SessionHarness(state,
                ignored -> new LocalSandboxProvider().open(noGit, new TestProviderContext(state, "test")))) {
            assertThatThrownBy(() -> factory.open(SessionSpec.builder("s1").repository(remote.toString()).branch("w")
                    .setupCommands("true").build()))
                    .isInstanceOfSatisfying(MaterializeException.class, e -> assertThat(e.errorCode()).isEqualTo(StandardErrorCode.GIT_MISSING.toErrorCode()))
                    .hasMessageContaining("'git --version' failed");
            assertThat(factory.store.failedSetupCommands("s1")).isEmpty();
            assertThat(factory.listener.commands()).as("nothing after the probe").hasSize(1);
        }
    }
}
