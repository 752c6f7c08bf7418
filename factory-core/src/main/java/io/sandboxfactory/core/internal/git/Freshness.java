package io.sandboxfactory.core.internal.git;

import io.sandboxfactory.api.CommandExecutor;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.support.Sandboxes;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Brings a warm checkout up to its upstream after the fetch (design §5.13): a clean session branch
 * strictly behind the branch it tracks is fast-forwarded ({@code merge --ff-only}); a dirty or
 * diverged one is left exactly as it is and reported. Never resets, rebases or makes a merge commit.
 */
public final class Freshness {

    /** Where a checkout stands against its upstream after a start. */
    public enum State {
        /** The branch tracks no remote branch (a local-only session branch): nothing to compare. */
        NO_UPSTREAM,
        UP_TO_DATE,
        /** Only local commits on top of the upstream. */
        AHEAD,
        /** It was strictly behind and clean, and is now at the upstream. */
        FAST_FORWARDED,
        /** Behind, with uncommitted changes to tracked files: left untouched. */
        DIRTY,
        /** Local and upstream commits on both sides: left untouched. */
        DIVERGED,
        /** Behind and clean, but git refused the fast-forward (say, an untracked file in the way): left untouched. */
        BLOCKED
    }

    /**
     * The outcome for one checkout.
     *
     * @param upstream the tracked branch ({@code origin/x}); empty for {@link State#NO_UPSTREAM}
     * @param ahead local commits the upstream lacks
     * @param behind upstream commits the branch lacked before any fast-forward
     */
    public record Result(State state, Optional<String> upstream, int ahead, int behind) {

        public static final Result NO_UPSTREAM = new Result(State.NO_UPSTREAM, Optional.empty(), 0, 0);

        /** Whether the user should hear about it: work was left behind its upstream. */
        public boolean needsAttention() {
            return state == State.DIRTY || state == State.DIVERGED || state == State.BLOCKED;
        }

        /** What {@code status} shows: {@code up to date}, {@code behind 2, dirty}, {@code diverged (ahead 1, behind 2)}… */
        public String describe() {
            String of = upstream.map(u -> " " + u).orElse("");
            return switch (state) {
                case NO_UPSTREAM -> "local only";
                case UP_TO_DATE -> "up to date with" + of;
                case AHEAD -> "ahead " + ahead + " of" + of;
                case FAST_FORWARDED -> "fast-forwarded " + behind + " commit(s) to" + of;
                case DIRTY -> "behind " + behind + ", dirty: not fast-forwarded to" + of;
                case DIVERGED -> "diverged from" + of + " (ahead " + ahead + ", behind " + behind + ")";
                case BLOCKED -> "behind " + behind + ": git refused to fast-forward to" + of;
            };
        }
    }

    private final Duration timeout;

    /** @param timeout how long comparing and fast-forwarding may take */
    public Freshness(Duration timeout) {
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /** Compares {@code checkout}'s current branch with its upstream and fast-forwards it when that is safe. */
    public Result update(CommandExecutor exec, String checkout) {
        CommandResult result = exec.executeCommand(script(checkout), List.of(),
                CommandOptions.builder().timeout(timeout).maxRetainedBytes(64 * 1024).build());
        return parse(result.stdout());
    }

    static String script(String checkout) {
        return "cd " + Sandboxes.quote(checkout) + " || exit 2\n"
                + "u=$(git rev-parse --abbrev-ref --symbolic-full-name '@{u}' 2>/dev/null) || { echo '@@state=none'; exit 0; }\n"
                + "set -- $(git rev-list --left-right --count 'HEAD...@{u}' 2>/dev/null)\n"
                + "echo \"@@upstream=$u\"; echo \"@@ahead=${1:-0}\"; echo \"@@behind=${2:-0}\"\n"
                + "if [ \"${2:-0}\" -gt 0 ] && [ \"${1:-0}\" -eq 0 ]; then\n"
                + "  if [ -n \"$(git status --porcelain --untracked-files=no 2>/dev/null | head -n 1)\" ]; then echo '@@state=dirty'\n"
                + "  elif git merge --ff-only --quiet '@{u}' >/dev/null 2>&1; then echo '@@state=fast-forwarded'\n"
                + "  else echo '@@state=blocked'; fi\n"
                + "fi\n"
                + "exit 0\n";
    }

    static Result parse(String stdout) {
        String state = value(stdout, "state").orElse("");
        if (state.equals("none")) {
            return Result.NO_UPSTREAM;
        }
        Optional<String> upstream = value(stdout, "upstream");
        int ahead = value(stdout, "ahead").map(Freshness::count).orElse(0);
        int behind = value(stdout, "behind").map(Freshness::count).orElse(0);
        State resolved = switch (state) {
            case "dirty" -> State.DIRTY;
            case "fast-forwarded" -> State.FAST_FORWARDED;
            case "blocked" -> State.BLOCKED;
            default -> ahead > 0 && behind > 0 ? State.DIVERGED : ahead > 0 ? State.AHEAD : State.UP_TO_DATE;
        };
        return new Result(resolved, upstream, ahead, behind);
    }

    private static Optional<String> value(String stdout, String key) {
        String prefix = "@@" + key + "=";
        return stdout.lines().filter(l -> l.startsWith(prefix)).map(l -> l.substring(prefix.length()).strip()).findFirst();
    }

    private static int count(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
