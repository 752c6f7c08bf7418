package io.sandboxfactory.core.session;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * A {@link Redaction} applied to text that arrives in chunks, as a command's output streams: a
 * secret may end in the next chunk, so the end of what arrived is held back until it cannot be the
 * start of a secret any more — the longest secret's length less one, and a trailing run of token
 * characters (a token shape may go on) — then what is safe goes to the sink, masked. {@link
 * #flush()} passes the rest once the stream ended. Thread-safe; one per stream.
 */
public final class RedactedStream implements Consumer<String> {

    /**
     * A run of token characters longer than this is passed on although it may go on: output without
     * a break for this long (a base64 blob) must still reach the terminal while the command runs.
     */
    static final int MAX_HELD_RUN = 8192;

    private final Redaction redaction;
    private final Consumer<String> sink;
    private final int secretTail;
    private final StringBuilder pending = new StringBuilder();

    RedactedStream(Redaction redaction, Consumer<String> sink) {
        this.redaction = Objects.requireNonNull(redaction, "redaction");
        this.sink = Objects.requireNonNull(sink, "sink");
        this.secretTail = redaction.secrets().isEmpty() ? 0 : redaction.secrets().get(0).length() - 1;
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
     * Where the held text may be cut: before the last {@link #secretTail} characters and the
     * trailing run of token characters, and never inside a secret or a run of token characters
     * (a token shape), so each is masked whole in one piece or the other.
     */
    private int safeCut() {
        int length = pending.length();
        int cut = Math.max(0, length - secretTail);
        int run = runStart(length);
        if (length - run <= MAX_HELD_RUN) {
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
