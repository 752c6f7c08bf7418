package io.sandboxfactory.cli.session;

import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionLayout;
import io.sandboxfactory.store.api.EnvironmentDefinition;
import io.sandboxfactory.store.api.SessionRecord;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What a session changed against its base, per checkout: everything between the merge base of the
 * session branch with its base branch and the working tree (committed and uncommitted changes of
 * tracked files), and the untracked files beside it. Runs git in the sandbox, so it works for every
 * provider.
 */
public final class SessionDiff {

    /** One changed file; {@code added}/{@code deleted} lines are empty for a binary file. */
    public record Change(String path, Optional<Integer> added, Optional<Integer> deleted) {
        Map<String, Object> toJson() {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("path", path);
            doc.put("added", added.orElse(null));
            doc.put("deleted", deleted.orElse(null));
            doc.put("binary", added.isEmpty());
            return doc;
        }
    }

    /** One checkout's changes; {@code dir} is its directory under an environment's workspace ({@code ""} for a single repository). */
    public record Checkout(String dir, String repository, String base, String mergeBase, List<Change> files, List<String> untracked) {
        Map<String, Object> toJson() {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("dir", dir);
            doc.put("repository", repository);
            doc.put("base", base);
            doc.put("mergeBase", mergeBase);
            doc.put("files", files.stream().map(Change::toJson).toList());
            doc.put("untracked", untracked);
            return doc;
        }
    }

    private final SessionHandle session;
    private final SessionRecord record;

    public SessionDiff(SessionHandle session, SessionRecord record) {
        this.session = session;
        this.record = record;
    }

    /**
     * Every checkout's changes, in the session's order; writes each one's patch to {@code patch}
     * when given. An environment's patches name paths from the workspace root ({@code a/<dir>/...}),
     * so together they apply there as one.
     */
    public List<Checkout> checkouts(Optional<Consumer<String>> patch) {
        session.awaitStarted();
        SessionLayout layout = session.layout().orElseThrow(() -> new IllegalStateException("Session '" + session.sessionId()
                + "' started but its checkout is unknown."));
        boolean environment = record.definition().environment().isPresent();
        List<Checkout> result = new ArrayList<>();
        for (SessionLayout.Checkout checkout : layout.repositories()) {
            String dir = environment ? checkout.repoDir() : "";
            String base = baseOf(record, checkout.repoDir());
            String mergeBase = git(checkout, "merge-base", "HEAD", "refs/remotes/origin/" + base).strip();
            Checkout changes = new Checkout(dir, checkout.repository(), base, mergeBase,
                    changes(git(checkout, "diff", "--numstat", "-z", "--no-renames", mergeBase, "--")),
                    paths(git(checkout, "ls-files", "--others", "--exclude-standard", "-z")));
            result.add(changes);
            if (patch.isPresent()) {
                String prefix = dir.isEmpty() ? "" : dir + "/";
                CheckoutCommand.run(session, checkout, patch.get(), "git", "diff", "--no-color", "--no-ext-diff", "--src-prefix=a/" + prefix, "--dst-prefix=b/" + prefix,
                        mergeBase, "--");
            }
        }
        return result;
    }

    /** The document {@code --json} and {@code session_diff} give; the patch only when there is one. */
    public static Map<String, Object> json(String sessionId, List<Checkout> checkouts, Optional<HeadText> patch) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("session", sessionId);
        doc.put("repositories", checkouts.stream().map(Checkout::toJson).toList());
        patch.ifPresent(p -> {
            doc.put("patch", p.text());
            doc.put("patchTruncated", p.truncated());
        });
        return doc;
    }

    /** Keeps the first {@code limit} characters of what it is given, and whether there was more. */
    public static final class HeadText implements Consumer<String> {
        private final StringBuilder text = new StringBuilder();
        private final int limit;
        private boolean truncated;

        public HeadText(int limit) {
            this.limit = limit;
        }

        @Override
        public synchronized void accept(String chunk) {
            int room = limit - text.length();
            if (chunk.length() > room) {
                truncated = true;
                text.append(chunk, 0, Math.max(room, 0));
            } else {
                text.append(chunk);
            }
        }

        synchronized String text() {
            return text.toString();
        }

        synchronized boolean truncated() {
            return truncated;
        }
    }

    /** The session's base branch (an environment's repository may have its own); the remote's default branch when none was stored. */
    /** The branch the checkout in {@code repoDir} was created from, as {@code origin/<it>} names it; {@code HEAD} when unknown. */
    static String baseOf(SessionRecord record, String repoDir) {
        Optional<String> own = record.definition().environment().flatMap(env -> env.repositories().stream()
                .filter(r -> r.dir().equals(repoDir)).findFirst()).flatMap(EnvironmentDefinition.RepositoryDefinition::baseBranch);
        return own.or(() -> record.definition().baseBranch()).orElse("HEAD");
    }

    private String git(SessionLayout.Checkout checkout, String... args) {
        return CheckoutCommand.run(session, checkout, null, "git", args).stdout();
    }

    /** {@code git diff --numstat -z}: {@code added TAB deleted TAB path NUL}, {@code -} for a binary file's counts. */
    static List<Change> changes(String numstat) {
        List<Change> changes = new ArrayList<>();
        for (String entry : numstat.split("\0")) {
            String[] fields = entry.split("\t", 3);
            if (fields.length == 3) {
                changes.add(new Change(fields[2], count(fields[0]), count(fields[1])));
            }
        }
        return changes;
    }

    private static Optional<Integer> count(String field) {
        return field.equals("-") ? Optional.empty() : Optional.of(Integer.parseInt(field));
    }

    static List<String> paths(String nulSeparated) {
        return java.util.Arrays.stream(nulSeparated.split("\0")).filter(p -> !p.isEmpty()).toList();
    }
}
