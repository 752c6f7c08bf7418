package io.sandboxfactory.core.internal.git;

import io.sandboxfactory.api.CommandExecutor;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.error.ErrorCodeSupplier;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.host.RepositoryAccess;
import io.sandboxfactory.api.support.Sandboxes;
import io.sandboxfactory.core.config.GitConfig;
import io.sandboxfactory.core.session.MaterializeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Gets a repository into a directory of the sandbox with the sandbox's own {@code git} (design
 * §5.5). An existing checkout whose {@code origin} is the expected URL is kept and fetched — the
 * user's work is never reset. A checkout this framework cloned earlier from another URL is removed
 * and cloned again, but only when it provably holds no work (no uncommitted or untracked changes,
 * no unpushed commits, no stash). Anything else in a non-empty directory is left untouched and
 * reported as {@link MaterializeException#CHECKOUT_CONFLICT}. A clone appears at the checkout path
 * only once it is complete (it is made beside it and renamed). Clone and fetch are retried with
 * backoff on transient transport failures only; the token reaches git through {@link GitCredentials}.
 *
 * <p>Every start sets the configured git identity ({@code git.user.name}, {@code git.user.email}) in
 * the checkout's own {@code .git/config} — with {@code clone -c}, or {@code git config} on a kept
 * checkout — so commits in a session carry it on every provider, whatever the sandbox's {@code HOME}
 * holds. It is no secret; a checkout made from a template or under another configuration gets the
 * current one.
 */
public final class RepositoryMaterializer {

    private static final Logger LOG = LoggerFactory.getLogger(RepositoryMaterializer.class);

    /** What {@link #materialize} did. */
    public enum Outcome {
        /** A fresh clone was made. */
        CLONED,
        /** An existing checkout was kept and fetched. */
        FETCHED
    }

    private final RetryPolicy retry;
    private final Duration networkTimeout;
    private final String provider;
    private final String egressHint;
    private final GitConfig.User identity;

    /**
     * @param retry retries of clone and fetch on transient failures
     * @param networkTimeout how long one clone or fetch may take
     */
    public RepositoryMaterializer(RetryPolicy retry, Duration networkTimeout) {
        this(retry, networkTimeout, "", new GitConfig.User(GitConfig.DEFAULT_NAME, GitConfig.DEFAULT_EMAIL));
    }

    /**
     * @param provider the sandbox provider's name: its hints end the errors of a clone or fetch (which
     *     setting gives its sandboxes network, or lets them see a host directory); empty for none
     * @param identity the author of commits in the checkout (both parts set)
     */
    public RepositoryMaterializer(RetryPolicy retry, Duration networkTimeout, String provider, GitConfig.User identity) {
        this.retry = Objects.requireNonNull(retry, "retry");
        this.networkTimeout = Objects.requireNonNull(networkTimeout, "networkTimeout");
        this.provider = Objects.requireNonNull(provider, "provider");
        this.egressHint = egressHintFor(provider);
        this.identity = Objects.requireNonNull(identity, "identity");
        Objects.requireNonNull(identity.name(), "identity.name");
        Objects.requireNonNull(identity.email(), "identity.email");
    }

    /** The hint for a provider whose sandboxes may have no network, naming the setting that gives them one. */
    public static String egressHintFor(String provider) {
        return switch (provider) {
            case "local" -> " A local session has no network unless providers.local.network is host (or providers.local.isolation is none).";
            case "docker" -> " A docker session has no network while providers.docker.networkMode is none.";
            default -> "";
        };
    }

    /**
     * Fails with {@link MaterializeException#GIT_MISSING} unless the probe saw {@code git
     * --version} succeed.
     */
    public static void requireGit(Optional<String> gitVersion, String sessionId) {
        if (gitVersion.isEmpty()) {
            throw new MaterializeException(StandardErrorCode.GIT_MISSING, "git is not available in the sandbox of session '"
                    + sessionId + "' ('git --version' failed); install git in the sandbox image.");
        }
    }

    /**
     * Makes {@code checkout} a checkout of {@code access.cloneUrl()}.
     *
     * @param state what the probe saw in {@code checkout}
     */
    public Outcome materialize(CommandExecutor exec, String checkout, CheckoutState state, RepositoryAccess access) {
        return materialize(exec, checkout, state, access, Optional.empty());
    }

    /**
     * As {@link #materialize(CommandExecutor, String, CheckoutState, RepositoryAccess)}; a clone
     * borrows objects from {@code reference} (a mirror the sandbox can read, see {@link ObjectCache})
     * with {@code --reference-if-able … --dissociate}, so the checkout never depends on it.
     */
    public Outcome materialize(CommandExecutor exec, String checkout, CheckoutState state, RepositoryAccess access,
                               Optional<String> reference) {
        String url = access.cloneUrl();
        GitCredentials credentials = GitCredentials.of(access);
        if (keeps(state, url)) {
            fetch(exec, checkout, credentials, url);
            return Outcome.FETCHED;
        }
        boolean wipe = state.gitDirectory() && state.managed();
        if (!wipe && state.nonEmpty()) {
            throw new MaterializeException(StandardErrorCode.CHECKOUT_CONFLICT, "Directory " + checkout
                    + " already holds files that are not a checkout of " + url + " (origin: "
                    + state.originUrl().orElse("none") + "); it was left untouched — remove it or move it away to use this repository.");
        }
        if (wipe && !provablyClean(exec, checkout)) {
            throw new MaterializeException(StandardErrorCode.CHECKOUT_CONFLICT, "Directory " + checkout + " holds a checkout of "
                    + state.originUrl().orElse("another repository") + " with uncommitted changes, unpushed commits or stashes"
                    + " (or its state could not be read); it was left untouched — push or move that work away, or remove the"
                    + " directory, to use " + url + ".");
        }
        if (wipe) {
            LOG.info("Checkout {} was cloned from {}; cloning {} in its place.", checkout, state.originUrl().orElse("?"), url);
        }
        clone(exec, checkout, credentials, url, wipe, reference);
        return Outcome.CLONED;
    }

    /**
     * Whether the checkout at {@code checkout} provably holds nothing that removing it would lose:
     * no changes to tracked files, no untracked (non-ignored) files, no commits missing from every
     * remote-tracking branch, no stash. Anything unreadable counts as work.
     */
    private boolean provablyClean(CommandExecutor exec, String checkout) {
        String script = "cd " + Sandboxes.quote(checkout) + " || exit 2\n"
                + "s=$(git status --porcelain --untracked-files=normal) || exit 2\n"
                + "c=$(git rev-list -n 1 --branches --not --remotes) || exit 2\n"
                + "t=$(git stash list -n 1) || exit 2\n"
                + "[ -z \"$s$c$t\" ]";
        CommandResult result = exec.executeCommand(script, List.of(), CommandOptions.builder().timeout(networkTimeout)
                .maxRetainedBytes(64 * 1024).build());
        return result.exitCode() == 0;
    }

    /** Whether {@link #materialize} keeps (and fetches) the checkout in {@code state} rather than cloning. */
    public static boolean keeps(CheckoutState state, String cloneUrl) {
        return state.gitDirectory() && state.originUrl().filter(cloneUrl::equals).isPresent();
    }

    /**
     * Clones into a hidden sibling and renames it into place, so a clone cut short — its host
     * killed, the sandbox's git killed — never leaves a half-written checkout where the next start
     * would take it for the user's work (a working tree missing files reads as uncommitted
     * deletions, which are never clobbered). What such a clone left is removed before cloning again.
     */
    private void clone(CommandExecutor exec, String checkout, GitCredentials credentials, String url, boolean wipe,
                       Optional<String> reference) {
        String borrow = reference.map(r -> "--reference-if-able " + Sandboxes.quote(r) + " --dissociate ").orElse("");
        String parent = parentOf(checkout);
        String partial = Sandboxes.quote(partialCloneOf(checkout));
        String script = "mkdir -p " + Sandboxes.quote(parent) + " && rm -rf " + partial
                // The checkout is absent, empty (rmdir refuses anything else) or one of ours being replaced.
                + " && { " + (wipe ? "rm -rf " + Sandboxes.quote(checkout) : "[ ! -e " + Sandboxes.quote(checkout) + " ] || rmdir "
                + Sandboxes.quote(checkout)) + "; }"
                + " && git " + credentials.gitOptions() + " clone -c " + CheckoutState.MANAGED_KEY + "=true"
                + " -c " + Sandboxes.quote("user.name=" + identity.name()) + " -c " + Sandboxes.quote("user.email=" + identity.email())
                + " --progress " + borrow + "-- "
                + Sandboxes.quote(url) + " " + partial + " && mv " + partial + " " + Sandboxes.quote(checkout);
        CommandResult result = withRetries(exec, script, credentials, "clone " + url);
        if (!result.success()) {
            MaterializeException failure = failure(result, egressHint, StandardErrorCode.CLONE_FAILED, "Cloning " + url + " into " + checkout);
            if (output(result).contains("does not exist") && isHostDirectory(url) && !isGitRepository(Path.of(url))) {
                // Bad input, not a sandbox problem: no mount would help.
                throw new MaterializeException(StandardErrorCode.INVALID_REPOSITORY, "Repository " + url + " is a directory on this host but"
                        + " not a git repository; run 'git init' and commit there, or give a repository (a path, URL or owner/name).");
            }
            if (output(result).contains("does not exist") && isHostDirectory(url)) {
                // The repository is on the host, but the path is read inside the sandbox, which need not share the host's files.
                String message = failure.getMessage();
                throw new MaterializeException(failure.errorCode(), message + (message.endsWith(".") ? " " : ". ") + hostPathHint(url, provider));
            }
            throw failure;
        }
    }

    private static boolean isHostDirectory(String url) {
        try {
            return url.startsWith("/") && Files.isDirectory(Path.of(url));
        } catch (InvalidPathException e) {
            return false;
        }
    }

    /** What to do when a repository at a host path is missing inside the sandbox: the provider's mount of its directory. */
    static String hostPathHint(String path, String provider) {
        String dir = parentOf(path);
        String mount = switch (provider) {
            case "local" -> "providers.local.volumes: [\"" + dir + "\"]";
            case "docker" -> "providers.docker.volumes: [\"" + dir + ":" + dir + ":ro\"]";
            default -> "the provider's mount of host directories";
        };
        return "The repository is at " + path + " on this host, but the sandbox does not see that path; mount its directory"
                + " there at the same path (" + mount + ").";
    }

    /** A working tree ({@code .git} inside) or a bare repository ({@code HEAD}, {@code objects}, {@code refs}). */
    private static boolean isGitRepository(Path dir) {
        return Files.exists(dir.resolve(".git")) || Files.isRegularFile(dir.resolve("HEAD")) && Files.isDirectory(dir.resolve("objects"))
                && Files.isDirectory(dir.resolve("refs"));
    }

    private void fetch(CommandExecutor exec, String checkout, GitCredentials credentials, String url) {
        String script = "cd " + Sandboxes.quote(checkout) + " && git config user.name " + Sandboxes.quote(identity.name())
                + " && git config user.email " + Sandboxes.quote(identity.email())
                + " && git " + credentials.gitOptions() + " fetch --quiet --prune origin";
        CommandResult result = withRetries(exec, script, credentials, "fetch " + url);
        if (!result.success()) {
            throw failure(result, egressHint, StandardErrorCode.FETCH_FAILED, "Fetching " + url + " into " + checkout);
        }
    }

    private CommandResult withRetries(CommandExecutor exec, String script, GitCredentials credentials, String what) {
        CommandOptions options = CommandOptions.builder().env(gitEnv(credentials)).timeout(networkTimeout)
                .maxRetainedBytes(64 * 1024).build();
        for (int attempt = 0; ; attempt++) {
            CommandResult result = exec.executeCommand(script, List.of(), options);
            if (result.success() || result.timedOut() || attempt >= retry.retries() || !GitErrors.isTransient(output(result))) {
                return result;
            }
            Duration wait = retry.backoff(attempt + 1);
            LOG.warn("git {} failed with a transient error; retrying in {} ms ({} of {}): {}", what, wait.toMillis(),
                    attempt + 1, retry.retries(), GitErrors.tail(output(result)));
            sleep(wait);
        }
    }

    /** The environment every git command gets: the token (if any) and no interactive prompts. */
    static Map<String, String> gitEnv(GitCredentials credentials) {
        Map<String, String> env = new LinkedHashMap<>(credentials.commandEnv());
        env.put("GIT_TERMINAL_PROMPT", "0");
        env.put("GCM_INTERACTIVE", "never");
        return env;
    }

    private static MaterializeException failure(CommandResult result, String egressHint, ErrorCodeSupplier code, String what) {
        String output = output(result);
        if (result.timedOut()) {
            return new MaterializeException(code, what + " timed out after " + result.executionTime().toSeconds() + " s.");
        }
        if (GitErrors.isEgressBlocked(output)) {
            return new MaterializeException(StandardErrorCode.EGRESS_BLOCKED, what
                    + " failed because the sandbox could not reach the remote: " + GitErrors.tail(output) + egressHint);
        }
        return new MaterializeException(code, what + " failed (exit " + result.exitCode() + "): " + GitErrors.tail(output));
    }

    static String output(CommandResult result) {
        return result.stderr().isBlank() ? result.stdout() : result.stderr();
    }

    /** Where {@code checkout} is cloned before it is renamed into place: a hidden sibling no repoDir can name. */
    static String partialCloneOf(String checkout) {
        int slash = checkout.lastIndexOf('/');
        return checkout.substring(0, slash + 1) + "." + checkout.substring(slash + 1) + ".partial-clone";
    }

    static String parentOf(String path) {
        int slash = path.lastIndexOf('/');
        return slash <= 0 ? "/" : path.substring(0, slash);
    }

    private static void sleep(Duration wait) {
        try {
            Thread.sleep(wait.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SandboxException(StandardErrorCode.INTERRUPTED, "Interrupted while waiting to retry a git command.", e);
        }
    }
}
