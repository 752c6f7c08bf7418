package io.sandboxfactory.cli.session;

import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.cli.BadInputException;
import io.sandboxfactory.core.files.SandboxFilesystem;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionLayout;
import io.sandboxfactory.store.api.SessionRecord;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Brings a session's branch into a repository on the host as {@code refs/heads/factory/<id>/<branch>}:
 * a {@code git bundle} made inside the sandbox, copied out through the session's files (so it works
 * for every provider with files, a container without network included), fetched from on the host
 * and set with {@code update-ref}; the host's working tree, index and HEAD are never touched.
 */
public final class SessionExport {

    /** What was exported: the ref, its new commit and the one it replaced (empty when new). */
    public record Exported(String ref, String commit, Optional<String> previous, boolean uncommittedLeftBehind) {
    }

    private static final Logger LOG = LoggerFactory.getLogger(SessionExport.class);
    /** Where the bundle is made, in the checkout; one name per export, so two exports never share it. */
    private static final String BUNDLE_PREFIX = ".git/factory-export-";

    private final SessionHandle session;
    private final SessionRecord record;

    public SessionExport(SessionHandle session, SessionRecord record) {
        this.session = session;
        this.record = record;
    }

    /** The ref a session's branch is exported as; refused before anything runs when git would not take it. */
    public static String refFor(String sessionId, String branch, HostGit git) {
        String ref = "refs/heads/factory/" + sessionId + "/" + branch;
        if (git.run("check-ref-format", ref).exitCode() != 0) {
            throw new BadInputException("Session '" + sessionId + "' cannot be exported: '" + ref + "' is no valid git ref name"
                    + " (session ids with spaces or characters like ~^:?*[ cannot name a branch).");
        }
        return ref;
    }

    /**
     * Exports the branch of the checkout in {@code dir} (an environment's repository; empty for a
     * single repository) into the repository {@code git} works in.
     */
    public Exported into(HostGit git, String ref, Optional<String> dir, boolean force) {
        String branch = record.definition().branch();
        session.awaitStarted();
        SessionLayout.Checkout checkout = checkout(dir);
        String prefix = record.definition().environment().isPresent() ? checkout.repoDir() + "/" : "";
        String inCheckout = BUNDLE_PREFIX + java.util.UUID.randomUUID() + ".bundle";
        Path temp = null;
        try {
            if (!force) {
                requireRelated(git, checkout, branch);
            }
            inSandbox(checkout, "git", "bundle", "create", "-q", inCheckout, "refs/heads/" + branch);
            boolean dirty = !inSandbox(checkout, "git", "status", "--porcelain", "--untracked-files=no").stdout().isBlank();
            temp = Files.createTempDirectory("factory-export-");
            Path bundle = temp.resolve("session.bundle");
            SandboxFilesystem.forSession(session).copyOut(prefix + inCheckout, bundle);
            String commit = git.require("read the bundle of session '" + session.sessionId() + "'", "bundle", "list-heads",
                    bundle.toString(), "refs/heads/" + branch).strip().split("\\s+")[0];
            git.require("fetch the session's commits", "fetch", "--quiet", "--no-write-fetch-head", bundle.toString(), "refs/heads/" + branch);
            Optional<String> previous = Optional.of(git.run("rev-parse", "--verify", "-q", ref + "^{commit}"))
                    .filter(r -> r.exitCode() == 0).map(r -> r.stdout().strip());
            if (previous.isPresent() && !previous.get().equals(commit) && !force
                    && git.run("merge-base", "--is-ancestor", previous.get(), commit).exitCode() != 0) {
                throw new BadInputException(ref + " is at " + previous.get().substring(0, 12) + ", which is not an ancestor of the session's "
                        + commit.substring(0, 12) + "; pass --force to overwrite it.");
            }
            git.require("set " + ref, "update-ref", "-m", "factory export " + session.sessionId(), ref, commit, previous.orElse(""));
            return new Exported(ref, commit, previous, dirty);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not make a temporary directory for the bundle: " + e.getMessage(), e);
        } finally {
            removeBundle(checkout, inCheckout);
            if (temp != null) {
                deleteTree(temp);
            }
        }
    }

    /**
     * Refuses, before anything is written to the target, a repository that shares no history with
     * the session branch. Related means: a ref of the target (any ref, or its {@code HEAD}) reaches
     * the session's base commit (where the branch left {@code origin/<base>}) or one of the branch's
     * root commits (the commits without parents it descends from; the shallow boundary of a shallow
     * checkout). Two histories with a common ancestor share the root commits of that ancestor, so
     * this is "they have a common ancestor", exact for full clones; the base commit also admits a
     * shallow clone of the session's repository, which lacks the roots. An object the target holds
     * but no ref reaches (left from an earlier fetch) does not count. Exporting into an unrelated
     * repository would graft a foreign history onto it.
     */
    private void requireRelated(HostGit git, SessionLayout.Checkout checkout, String branch) {
        List<String> candidates = new ArrayList<>();
        CommandResult base = inSandbox(checkout, "git", "merge-base", "refs/heads/" + branch,
                "refs/remotes/origin/" + SessionDiff.baseOf(record, checkout.repoDir()));
        if (base.exitCode() == 0 && !base.stdout().isBlank()) {
            candidates.add(base.stdout().strip());
        }
        inSandbox(checkout, "git", "rev-list", "--max-parents=0", "refs/heads/" + branch).stdout().lines()
                .map(String::strip).filter(line -> !line.isEmpty()).forEach(candidates::add);
        if (candidates.stream().noneMatch(commit -> reachable(git, commit))) {
            throw new BadInputException("The repository at " + git.directory() + " shares no history with session '" + session.sessionId()
                    + "' (none of its refs reaches the session's base commit or a root commit of branch '" + branch + "'); export into"
                    + " a clone of the session's repository, or pass --force to import the unrelated history anyway.");
        }
    }

    /** Whether a ref or the {@code HEAD} of the target reaches {@code commit}; a commit it does not hold is reached by none. */
    private static boolean reachable(HostGit git, String commit) {
        HostGit.Result refs = git.run("for-each-ref", "--count=1", "--contains", commit, "--format=%(refname)");
        return refs.exitCode() == 0 && !refs.stdout().isBlank() || git.run("merge-base", "--is-ancestor", commit, "HEAD").exitCode() == 0;
    }

    /** Best effort: a failure here must not hide the one that ended the export. */
    private void removeBundle(SessionLayout.Checkout checkout, String bundle) {
        try {
            inSandbox(checkout, "rm", "-f", bundle);
        } catch (RuntimeException e) {
            LOG.warn("Could not remove {} in the checkout {} of session '{}': {}", bundle, checkout.path(), session.sessionId(),
                    e.getMessage());
        }
    }

    private SessionLayout.Checkout checkout(Optional<String> dir) {
        SessionLayout layout = session.layout().orElseThrow(() -> new IllegalStateException("Session '" + session.sessionId()
                + "' started but its checkout is unknown."));
        List<SessionLayout.Checkout> checkouts = layout.repositories();
        if (dir.isEmpty()) {
            if (checkouts.size() > 1) {
                throw new BadInputException("Session '" + session.sessionId() + "' has " + checkouts.size() + " repositories ("
                        + String.join(", ", checkouts.stream().map(SessionLayout.Checkout::repoDir).toList())
                        + "); name the one to export with --dir.");
            }
            return checkouts.get(0);
        }
        return checkouts.stream().filter(c -> c.repoDir().equals(dir.get())).findFirst().orElseThrow(() -> new BadInputException(
                "Session '" + session.sessionId() + "' has no repository in '" + dir.get() + "'; its directories are "
                        + String.join(", ", checkouts.stream().map(SessionLayout.Checkout::repoDir).toList()) + "."));
    }

    private CommandResult inSandbox(SessionLayout.Checkout checkout, String command, String... args) {
        return CheckoutCommand.run(session, checkout, null, command, args);
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not remove the temporary bundle in " + dir + ": " + e.getMessage(), e);
        }
    }
}
