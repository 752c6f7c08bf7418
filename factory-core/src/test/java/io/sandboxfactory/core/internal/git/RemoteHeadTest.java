package io.sandboxfactory.core.internal.git;

import io.sandboxfactory.api.CommandExecutor;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.host.RepositoryAccess;
import io.sandboxfactory.core.testing.Git;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The remote's default branch as the base of a new session branch, with the real git and real repositories. */
class RemoteHeadTest {

    @TempDir
    Path tmp;

    private final SessionBranch branches = new SessionBranch(Duration.ofSeconds(60));

    /** Runs commands with /bin/sh on the host, as the local provider does. */
    private static final CommandExecutor SHELL = (command, args, options) -> {
        try {
            ProcessBuilder builder = new ProcessBuilder("sh", "-c", command);
            builder.environment().putAll(options.env());
            Process process = builder.start();
            String out = new String(process.getInputStream().readAllBytes());
            String err = new String(process.getErrorStream().readAllBytes());
            int exit = process.waitFor();
            return new CommandResult(exit, out, err, Duration.ZERO, false, false, false, command);
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    };

    private Path cloneOf(Path bare) {
        Path checkout = tmp.resolve("checkout-" + bare.getFileName());
        Git.run(tmp, "clone", "-q", bare.toString(), checkout.toString());
        return checkout;
    }

    private SessionBranch.Result checkoutWithoutBase(Path checkout, Path bare) {
        return branches.checkout(SHELL, checkout.toString(), "work", Optional.empty(), RepositoryAccess.anonymous(bare.toString()));
    }

    @Test
    void aCloneKnowsTheRemotesDefaultBranch() throws IOException {
        Path bare = Git.bareRepository(tmp.resolve("trunk.git"), "trunk");
        Git.run(bare, "symbolic-ref", "HEAD", "refs/heads/trunk");
        Path checkout = cloneOf(bare);

        SessionBranch.Result result = checkoutWithoutBase(checkout, bare);

        assertThat(result.outcome()).isEqualTo(SessionBranch.Outcome.CREATED);
        assertThat(result.resolvedBase()).contains("trunk");
        assertThat(Git.revParse(checkout, "HEAD")).isEqualTo(Git.revParse(bare, "trunk"));
    }

    @Test
    void withoutOriginHeadTheRemoteIsAsked() throws IOException {
        Path bare = Git.bareRepository(tmp.resolve("asked.git"), "develop");
        Path checkout = cloneOf(bare);
        Git.run(checkout, "remote", "set-head", "origin", "-d");
        Git.run(bare, "symbolic-ref", "HEAD", "refs/heads/develop");

        assertThat(checkoutWithoutBase(checkout, bare).resolvedBase()).contains("develop");
        assertThat(Git.revParse(checkout, "HEAD")).isEqualTo(Git.revParse(bare, "develop"));
    }

    @Test
    void aRemoteThatAdvertisesNoHeadMeansMain() throws IOException {
        Path bare = Git.bareRepository(tmp.resolve("unborn.git"), "other");
        Path checkout = cloneOf(bare);
        Git.run(checkout, "remote", "set-head", "origin", "-d");
        Git.run(bare, "symbolic-ref", "HEAD", "refs/heads/does-not-exist");

        assertThat(checkoutWithoutBase(checkout, bare).resolvedBase()).contains(RemoteHead.FALLBACK);
        assertThat(Git.revParse(checkout, "HEAD")).isEqualTo(Git.revParse(bare, "main"));
    }

    @Test
    void aDefaultBranchSessionsWouldRefuseServesTheCheckoutButIsNotKept() throws IOException {
        Path bare = Git.bareRepository(tmp.resolve("odd.git"), "odd.LOCK");
        Git.run(bare, "symbolic-ref", "HEAD", "refs/heads/odd.LOCK");
        Path checkout = cloneOf(bare);

        SessionBranch.Result result = checkoutWithoutBase(checkout, bare);

        assertThat(result.outcome()).isEqualTo(SessionBranch.Outcome.CREATED);
        assertThat(result.resolvedBase()).isEmpty();
        assertThat(Git.revParse(checkout, "HEAD")).isEqualTo(Git.revParse(bare, "odd.LOCK"));
    }

    @Test
    void anExplicitBaseIsNeverReplacedByTheRemotesDefault() throws IOException {
        Path bare = Git.bareRepository(tmp.resolve("explicit.git"), "trunk");
        Git.run(bare, "symbolic-ref", "HEAD", "refs/heads/trunk");
        Path checkout = cloneOf(bare);

        SessionBranch.Result result = branches.checkout(SHELL, checkout.toString(), "work", Optional.of("main"),
                RepositoryAccess.anonymous(bare.toString()));

        assertThat(result.resolvedBase()).isEmpty();
        assertThat(Git.revParse(checkout, "HEAD")).isEqualTo(Git.revParse(bare, "main"));
    }
}
