package io.sandboxfactory.core.internal.git;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;

/**
 * The default branch of a checkout's {@code origin} (design §5.13), the base of sessions that name
 * none: what {@code refs/remotes/origin/HEAD} points at (a clone sets it from the remote), else what
 * the remote advertises as {@code HEAD} ({@code git ls-remote --symref}), else {@code main}. It is
 * resolved inside the sandbox, by the checkout's own script, so it costs no extra round trip.
 */
final class RemoteHead {

    private static final Logger LOG = LoggerFactory.getLogger(RemoteHead.class);

    /** The base when the remote advertises no {@code HEAD} (an empty repository, a dumb server). */
    public static final String FALLBACK = "main";

    /** What the script prints before the branch it resolved. */
    static final String MARK = "@@base=";

    private RemoteHead() {
    }

    /** Shell code that sets {@code $base} to the default branch of origin of the current directory's checkout. */
    static String script(GitCredentials credentials) {
        return "  if h=$(git symbolic-ref -q refs/remotes/origin/HEAD 2>/dev/null); then base=${h#refs/remotes/origin/}; else\n"
                + "    base=$(git " + credentials.gitOptions() + " ls-remote --symref origin HEAD 2>/dev/null | while read -r a r c; do\n"
                + "      [ \"$a\" = ref: ] && [ \"$c\" = HEAD ] && echo \"${r#refs/heads/}\"; done)\n"
                + "  fi\n"
                + "  [ -n \"$base\" ] || base=" + FALLBACK + "\n"
                + "  echo \"" + MARK + "$base\"\n";
    }

    /**
     * The base {@link #script} printed, when sessions accept it as a branch name. A remote's own
     * default branch is always a valid git ref, so one that only this framework's stricter rule
     * refuses (say {@code odd.LOCK}) still served the checkout; it is just not kept for later use.
     */
    static Optional<String> printed(String stdout, String checkout) {
        Optional<String> base = stdout.lines().filter(l -> l.startsWith(MARK)).map(l -> l.substring(MARK.length()).strip())
                .filter(l -> !l.isEmpty()).reduce((a, b) -> b);
        Optional<String> refused = base.flatMap(GitRefs::problem);
        if (refused.isPresent()) {
            LOG.warn("The default branch '{}' of origin of {} served as the base, but is not kept for the session: {}.",
                    base.get(), checkout, refused.get());
            return Optional.empty();
        }
        return base;
    }
}
