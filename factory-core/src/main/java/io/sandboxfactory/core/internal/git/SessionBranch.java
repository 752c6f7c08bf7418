package io.sandboxfactory.core.internal.git;

import io.sandboxfactory.api.CommandExecutor;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.host.RepositoryAccess;
import io.sandboxfactory.api.support.Sandboxes;
import io.sandboxfactory.core.session.MaterializeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Checks out the session branch in one round trip (design §5.6). In order: already on it → done;
 * a local branch → check it out; {@code origin/<branch>} (a resumed session on a new sandbox) →
 * check it out tracking the remote; otherwise create it from {@code origin/<base>}, fetching the
 * base first if the checkout lacks it. A concurrent creation ("already exists") adopts the branch.
 * Uncommitted work that a checkout would overwrite is never clobbered: the current branch is kept
 * and reported. Both names are validated with {@link GitRefs} before anything runs.
 */
public final class SessionBranch {

    private static final Logger LOG = LoggerFactory.getLogger(SessionBranch.class);
    /**
     * How old an {@code index.lock} must be before the checkout takes it for one a killed git left
     * behind: git holds the lock only while it writes the index, seconds even in a large repository.
     */
    public static final int STALE_LOCK_MINUTES = 10;

    /** How the branch was reached. */
    public enum Outcome {
        /** The checkout was already on the branch. */
        ALREADY_CURRENT,
        /** An existing local branch was checked out. */
        LOCAL,
        /** The branch existed only on origin; it was checked out tracking it. */
        RESUMED_FROM_REMOTE,
        /** The branch was created from the base. */
        CREATED,
        /** Another actor created the branch concurrently; it was adopted. */
        ADOPTED,
        /** Uncommitted work would have been overwritten; the current branch was kept. */
        KEPT_CURRENT
    }

    /**
     * The result of {@link #checkout}.
     *
     * @param outcome how the branch was reached
     * @param currentBranch the branch checked out now (differs from the session branch only for {@link Outcome#KEPT_CURRENT})
     * @param note a sentence for the user when something needs their attention
     * @param resolvedBase the remote's default branch, when the checkout was asked for no base and
     *     created the branch from it (see {@link RemoteHead})
     */
    public record Result(Outcome outcome, String currentBranch, Optional<String> note, Optional<String> resolvedBase) {
    }

    private final Duration timeout;

    /** @param timeout how long the checkout (including a base fetch) may take */
    public SessionBranch(Duration timeout) {
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /**
     * Puts {@code checkout} on {@code branch}, creating it from {@code base} when new, or from the
     * remote's default branch when {@code base} is empty.
     */
    public Result checkout(CommandExecutor exec, String checkout, String branch, Optional<String> base, RepositoryAccess access) {
        GitRefs.requireValid(branch, "Branch");
        base.ifPresent(b -> GitRefs.requireValid(b, "Base branch"));
        GitCredentials credentials = GitCredentials.of(access);
        CommandOptions options = CommandOptions.builder().env(RepositoryMaterializer.gitEnv(credentials)).timeout(timeout)
                .maxRetainedBytes(64 * 1024).build();
        CommandResult result = exec.executeCommand(script(checkout, branch, base, credentials), List.of(), options);
        String marker = result.stdout().lines().filter(l -> l.startsWith("@@branch=")).reduce((a, b) -> b)
                .map(l -> l.substring("@@branch=".length())).orElse("");
        String output = RepositoryMaterializer.output(result);
        if (result.stdout().lines().anyMatch("@@stale-lock"::equals)) {
            LOG.warn("Removed {}/.git/index.lock, older than {} minutes: a git process that was killed (out of memory, power"
                    + " loss) left it, and it would block every git command in the checkout.", checkout, STALE_LOCK_MINUTES);
        }
        Optional<String> resolved = base.isPresent() ? Optional.empty() : RemoteHead.printed(result.stdout(), checkout);
        if (result.success()) {
            return new Result(outcomeOf(marker), branch, Optional.empty(), resolved);
        }
        if (marker.equals("failed") && wouldOverwriteWork(output)) {
            String current = result.stdout().lines().filter(l -> l.startsWith("@@current="))
                    .map(l -> l.substring("@@current=".length())).findFirst().filter(s -> !s.isBlank()).orElse("(detached HEAD)");
            String note = "Kept branch '" + current + "' in " + checkout + " because switching to '" + branch
                    + "' would overwrite uncommitted changes; commit or stash them, then check out '" + branch + "'.";
            LOG.warn(note);
            return new Result(Outcome.KEPT_CURRENT, current, Optional.of(note), Optional.empty());
        }
        if (marker.equals("nobase")) {
            String named = base.or(() -> result.stdout().lines().filter(l -> l.startsWith(RemoteHead.MARK))
                    .map(l -> l.substring(RemoteHead.MARK.length())).findFirst()).orElse(RemoteHead.FALLBACK);
            throw new MaterializeException(StandardErrorCode.BRANCH_FAILED, "Base branch '" + named
                    + "' does not exist on origin of " + checkout + ", so branch '" + branch + "' cannot be created from it.");
        }
        throw new MaterializeException(StandardErrorCode.BRANCH_FAILED, "Checking out branch '" + branch + "' in " + checkout
                + " failed (exit " + result.exitCode() + "): " + GitErrors.tail(output));
    }

    private static Outcome outcomeOf(String marker) {
        return switch (marker) {
            case "current" -> Outcome.ALREADY_CURRENT;
            case "local" -> Outcome.LOCAL;
            case "remote" -> Outcome.RESUMED_FROM_REMOTE;
            case "adopted" -> Outcome.ADOPTED;
            default -> Outcome.CREATED;
        };
    }

    private static boolean wouldOverwriteWork(String output) {
        String text = output.toLowerCase(Locale.ROOT);
        return text.contains("would be overwritten") || text.contains("your local changes")
                || text.contains("please commit your changes or stash them");
    }

    private static String script(String checkout, String branch, Optional<String> base, GitCredentials credentials) {
        return "cd " + Sandboxes.quote(checkout) + " || exit 2\n"
                + "l=\"$(git rev-parse --git-dir 2>/dev/null)/index.lock\"\n"
                + "if [ -f \"$l\" ] && [ -n \"$(find \"$l\" -mmin +" + STALE_LOCK_MINUTES + " 2>/dev/null)\" ]; then"
                + " rm -f \"$l\" && echo '@@stale-lock'; fi\n"
                + "b=" + Sandboxes.quote(branch) + "; base=" + Sandboxes.quote(base.orElse("")) + "\n"
                + "cur=$(git symbolic-ref -q --short HEAD); echo \"@@current=$cur\"\n"
                + "if [ \"$cur\" = \"$b\" ]; then echo '@@branch=current'; exit 0; fi\n"
                + "if git show-ref --verify -q \"refs/heads/$b\"; then\n"
                + "  out=$(git checkout -q \"$b\" 2>&1) && { echo '@@branch=local'; exit 0; }\n"
                + "elif git show-ref --verify -q \"refs/remotes/origin/$b\"; then\n"
                + "  out=$(git checkout -q --track -b \"$b\" \"origin/$b\" 2>&1) && { echo '@@branch=remote'; exit 0; }\n"
                + "else\n"
                + (base.isPresent() ? "" : RemoteHead.script(credentials))
                + "  git show-ref --verify -q \"refs/remotes/origin/$base\" || git " + credentials.gitOptions()
                + " fetch --quiet origin \"+refs/heads/$base:refs/remotes/origin/$base\" >/dev/null 2>&1\n"
                + "  if git show-ref --verify -q \"refs/remotes/origin/$base\"; then\n"
                + "    out=$(git checkout -q --no-track -b \"$b\" \"origin/$base\" 2>&1) && { echo '@@branch=created'; exit 0; }\n"
                + "  elif ! git rev-parse -q --verify HEAD >/dev/null 2>&1; then\n"
                // An empty repository has no base to branch from: start the branch unborn.
                + "    out=$(git checkout -q -b \"$b\" 2>&1) && { echo '@@branch=created'; exit 0; }\n"
                + "  else echo '@@branch=nobase'; exit 4; fi\n"
                + "fi\n"
                + "case \"$out\" in *'already exists'*) out=$(git checkout -q \"$b\" 2>&1) && { echo '@@branch=adopted'; exit 0; };; esac\n"
                + "echo '@@branch=failed'; printf '%s\\n' \"$out\" >&2; exit 3\n";
    }
}
