package io.sandboxfactory.core.internal.git;

import io.sandboxfactory.api.CommandExecutor;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.host.RepositoryAccess;
import io.sandboxfactory.core.session.MaterializeException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Retry and error classification with a scripted executor (the real clone and fetch paths are
 * covered against real git in the session tests).
 */
class RepositoryMaterializerTest {

    private static final RepositoryAccess ACCESS = RepositoryAccess.anonymous("https://git.example.invalid/a/b.git");

    /** Answers commands from a script of results and records what it was asked. */
    private static final class ScriptedSandbox implements CommandExecutor {
        final Deque<CommandResult> results = new ArrayDeque<>();
        final List<String> commands = new ArrayList<>();

        ScriptedSandbox answer(int exit, String stderr) {
            results.add(new CommandResult(exit, "", stderr, Duration.ZERO, false, false, false, ""));
            return this;
        }

        @Override
        public CommandResult executeCommand(String command, List<String> args, io.sandboxfactory.api.CommandOptions options) {
            commands.add(command);
            return results.removeFirst();
        }
    }

    private final RepositoryMaterializer materializer = new RepositoryMaterializer(new RetryPolicy(2, Duration.ZERO), Duration.ofMinutes(1));

    @Test
    void transientTransportFailuresAreRetriedTwice() {
        ScriptedSandbox sandbox = new ScriptedSandbox()
                .answer(128, "error: RPC failed; curl 56 Recv failure: Connection reset by peer")
                .answer(128, "fatal: the remote end hung up unexpectedly")
                .answer(0, "");
        assertThat(materializer.materialize(sandbox, "/w/b", CheckoutState.absent(), ACCESS)).isEqualTo(RepositoryMaterializer.Outcome.CLONED);
        assertThat(sandbox.commands).hasSize(3);
    }

    @Test
    void afterTwoRetriesAnUnreachableRemoteIsEgressBlocked() {
        ScriptedSandbox sandbox = new ScriptedSandbox();
        for (int i = 0; i < 3; i++) {
            sandbox.answer(128, "fatal: unable to access 'https://git.example.invalid/a/b.git/': Could not resolve host: git.example.invalid");
        }
        assertThatThrownBy(() -> materializer.materialize(sandbox, "/w/b", CheckoutState.absent(), ACCESS))
                .isInstanceOfSatisfying(MaterializeException.class, e -> assertThat(e.errorCode()).isEqualTo(StandardErrorCode.EGRESS_BLOCKED.toErrorCode()))
                .hasMessageContaining("could not reach the remote");
        assertThat(sandbox.commands).hasSize(3);
    }

    @Test
    void aPermanentFailureIsNotRetried() {
        ScriptedSandbox sandbox = new ScriptedSandbox().answer(128, "remote: Repository not found.\nfatal: repository 'x' not found");
        assertThatThrownBy(() -> materializer.materialize(sandbox, "/w/b", CheckoutState.absent(), ACCESS))
                .isInstanceOfSatisfying(MaterializeException.class, e -> assertThat(e.errorCode()).isEqualTo(StandardErrorCode.CLONE_FAILED.toErrorCode()));
        assertThat(sandbox.commands).hasSize(1);
    }

    @Test
    void anExistingCheckoutOfTheSameUrlIsFetchedAndAFetchFailureSaysSo() {
        CheckoutState ours = new CheckoutState(true, true, Optional.of(ACCESS.cloneUrl()), true, Optional.of("work"), Optional.empty());
        ScriptedSandbox sandbox = new ScriptedSandbox().answer(1, "fatal: couldn't find remote ref");
        assertThatThrownBy(() -> materializer.materialize(sandbox, "/w/b", ours, ACCESS))
                .isInstanceOfSatisfying(MaterializeException.class, e -> assertThat(e.errorCode()).isEqualTo(StandardErrorCode.FETCH_FAILED.toErrorCode()));
        assertThat(sandbox.commands.get(0)).contains(" fetch ").doesNotContain("rm -rf");
    }

    @Test
    void gitMissingIsReportedWithItsCode() {
        assertThatThrownBy(() -> RepositoryMaterializer.requireGit(Optional.empty(), "s1"))
                .isInstanceOfSatisfying(MaterializeException.class, e -> assertThat(e.errorCode()).isEqualTo(StandardErrorCode.GIT_MISSING.toErrorCode()))
                .hasMessage("git is not available in the sandbox of session 's1' ('git --version' failed); install git in the sandbox image.");
    }

    @Test
    void aHostRepositoryTheSandboxDoesNotSeeIsMountedTheProvidersWay() {
        assertThat(RepositoryMaterializer.hostPathHint("/srv/git/app", "local")).endsWith("(providers.local.volumes: [\"/srv/git\"]).");
        assertThat(RepositoryMaterializer.hostPathHint("/srv/git/app", "docker"))
                .endsWith("(providers.docker.volumes: [\"/srv/git:/srv/git:ro\"]).");
        assertThat(RepositoryMaterializer.hostPathHint("/srv/git/app", "kubernetes")).doesNotContain("docker");
    }
}
