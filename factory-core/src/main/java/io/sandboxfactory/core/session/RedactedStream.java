package io.sandboxfactory.core.session;

import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A {@link Redaction} applied to text that arrives in chunks, as a command's output streams: a
 * secret may end in the next chunk, so the end of what arrived is held back while it can still be
 * the start of a secret — a tail that is a secret's beginning, a trailing run of token characters
 * that begins (or is the beginning of) a token shape's prefix — then what is safe goes to the sink,
 * masked. Nothing else is held, so a prompt without a newline reaches the terminal at once. {@link
 * #flush()} passes the rest once the stream ended. Thread-safe; one per stream.
 */
public final class RedactedStream implements Consumer<String> {

    /**
     * A run of token characters longer than this is passed on although it may go on: output without
     * a break for this long (a base64 blob) must still reach the terminal while the command runs.
     */
    static final int MAX_HELD_RUN = 8192;

    /** How the token shapes {@link Redaction} knows begin. */
    private static final List<String> SHAPE_PREFIXES = List.of("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-",
            "xoxb-", "xoxp-", "AKIA", "ASIA");

    private final Redaction redaction;
    private final Consumer<String> sink;
    private final StringBuilder pending = new StringBuilder();

    RedactedStream(Redaction redaction, Consumer<String> sink) {
        this.redaction = Objects.requireNonNull(redaction, "redaction");
        this.sink = Objects.requireNonNull(sink, "sink");
    }

    @Override
    public synchronized void accept(String chunk) {
        if (chunk == null || chunk.isEmpty()) {
            return;
        }
        pending.append(chunk);
        int cut = safeCut();
        if (cut > 0) {
            String ready = pending.substring(0, cut);
            pending.delete(0, cut);
            sink.accept(redaction.apply(ready));
        }
    }

    /** Passes on whatever is held, masked: the stream ended. */
    public synchronized void flush() {
        if (!pending.isEmpty()) {
            String rest = pending.toString();
            pending.setLength(0);
            sink.accept(redaction.apply(rest));
        }
    }

    /**
     * Where the held text may be cut: before a tail that may begin a secret or a token shape, and
     * never inside a secret or a run of token characters (a token shape), so each is masked whole in
     * one piece or the other.
     */
    private int safeCut() {
        int length = pending.length();
        int cut = length - secretStartAtEnd();
        int run = runStart(length);
        if (length - run <= MAX_HELD_RUN && mayBeShape(pending.substring(run, length))) {
            cut = Math.min(cut, run);
        }
        int moved;
        do {
            moved = cut;
            cut = outsideSecrets(cut);
            if (cut > 0 && cut < length && isTokenChar(pending.charAt(cut - 1)) && isTokenChar(pending.charAt(cut))) {
                int start = runStart(cut);
                cut = cut - start <= MAX_HELD_RUN ? start : cut;
            }
        } while (cut != moved);
        return cut;
    }

    /** {@code cut}, moved back to the start of a secret it would split. */
    private int outsideSecrets(int cut) {
        int result = cut;
        for (String secret : redaction.secrets()) {
            int from = Math.max(0, result - secret.length() + 1);
            int at = pending.indexOf(secret, from);
            while (at >= 0 && at < result) {
                if (at + secret.length() > result) {
                    result = at;
                    break;
                }
                at = pending.indexOf(secret, at + 1);
            }
        }
        return result;
    }

    /** The length of the longest tail of what is held that is the beginning of a secret (0: none). */
    private int secretStartAtEnd() {
        int longest = 0;
        int length = pending.length();
        for (String secret : redaction.secrets()) {
            for (int l = Math.min(secret.length() - 1, length); l > longest; l--) {
                if (pending.indexOf(secret.substring(0, l), length - l) == length - l) {
                    longest = l;
                    break;
                }
            }
        }
        return longest;
    }

    /** Whether a run of token characters is, or may grow into, a token shape. */
    private static boolean mayBeShape(String run) {
        for (String prefix : SHAPE_PREFIXES) {
            if (run.startsWith(prefix) || prefix.startsWith(run) || run.contains(prefix)) {
                return true;
            }
        }
        // The run may end with the beginning of a prefix ("... gh").
        for (String prefix : SHAPE_PREFIXES) {
            for (int l = Math.min(prefix.length() - 1, run.length()); l > 0; l--) {
                if (run.endsWith(prefix.substring(0, l))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Where the run of token characters that ends at {@code end} starts. */
    private int runStart(int end) {
        int start = end;
        while (start > 0 && isTokenChar(pending.charAt(start - 1))) {
            start--;
        }
        return start;
    }

    /** The characters token shapes are made of. */
    private static boolean isTokenChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-';
    }
}
