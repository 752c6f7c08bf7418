package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.CommandExecutor;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.testing.TestProviderContext;
import io.sandboxfactory.provider.local.LocalProviderConfig;
import io.sandboxfactory.provider.local.LocalSandbox;
import io.sandboxfactory.provider.local.LocalSandboxProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The workspace probe against a real local sandbox: what it reads, and what a failing or hanging probe says. */
class WorkspaceProbeTest {

    @TempDir
    Path state;

    private LocalSandbox sandbox;

    @BeforeEach
    void start() {
        sandbox = (LocalSandbox) new LocalSandboxProvider()
                .open(LocalProviderConfig.withRoot(state.resolve("sessions").toString()), new TestProviderContext(state, "test"))
                .create(FactorySandboxContext.of("probe"));
        sandbox.start();
    }

    @AfterEach
    void destroy() {
        sandbox.destroy();
    }

    @Test
    void readsTheRootGitAndAMissingCheckout() {
        WorkspaceProbe.Result result = new WorkspaceProbe(Duration.ofMinutes(1)).probe(sandbox, Optional.empty(), List.of("repo"));

        assertThat(Path.of(result.root())).isAbsolute();
        assertThat(result.gitVersion()).hasValueSatisfying(v -> assertThat(v).startsWith("git version"));
        assertThat(result.checkouts()).singleElement().satisfies(checkout -> {
            assertThat(checkout.gitDirectory()).isFalse();
            assertThat(checkout.originUrl()).isEmpty();
        });
        assertThat(result.markers()).isEmpty();
    }

    @Test
    void aProbeThatOutlivesItsTimeoutSaysSoAndNamesTheSetting() {
        CommandExecutor hanging = (command, args, options) -> sandbox.executeCommand("sleep 600\n" + command, args, options);

        SandboxException e = catchThrowableOfType(SandboxException.class,
                () -> new WorkspaceProbe(Duration.ofMillis(1500)).probe(hanging, Optional.empty(), List.of("repo")));

        assertThat(e.errorCode()).isEqualTo(StandardErrorCode.PROBE_FAILED.toErrorCode());
        assertThat(e).hasMessage("Probing the sandbox workspace timed out after 1500ms; the sandbox did not answer in time "
                + "(timeouts.probe raises the limit).");
    }

    @Test
    void aProbeThatFailsGivesItsExitCodeAndOutput() {
        CommandExecutor failing = (command, args, options) -> sandbox.executeCommand("echo 'no shell here' >&2; exit 3", args, options);

        SandboxException e = catchThrowableOfType(SandboxException.class,
                () -> new WorkspaceProbe(Duration.ofMinutes(1)).probe(failing, Optional.empty(), List.of("repo")));

        assertThat(e.errorCode()).isEqualTo(StandardErrorCode.PROBE_FAILED.toErrorCode());
        assertThat(e).hasMessage("Probing the sandbox workspace failed (exit 3): no shell here");
    }
}
