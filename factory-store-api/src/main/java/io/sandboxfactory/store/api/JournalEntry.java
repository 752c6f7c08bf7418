package io.sandboxfactory.store.api;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One command run in a session, as the command journal keeps it. Never an environment value; the
 * command line and the output tails are redacted of the session's tokens before they get here.
 *
 * @param origin who ran it: {@code api}, {@code cli}, {@code daemon}, {@code mcp} (the factory's
 *     {@code commandOrigin}), or {@code setup}/{@code teardown} for the session's own commands
 * @param command the command line as given (for setup and teardown: the commands, one a line)
 * @param stdoutTail the last {@value #TAIL_BYTES} bytes (or fewer) of stdout
 * @param stderrTail the last {@value #TAIL_BYTES} bytes (or fewer) of stderr
 *
 * @since 0.1.0
 */
public record JournalEntry(String sessionId, Instant startedAt, Duration duration, String origin, String command, int exitCode,
                           boolean timedOut, String stdoutTail, String stderrTail) {

    /** How much of each stream an entry keeps. */
    public static final int TAIL_BYTES = 4096;

    public JournalEntry {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(command, "command");
        stdoutTail = tail(Objects.requireNonNullElse(stdoutTail, ""));
        stderrTail = tail(Objects.requireNonNullElse(stderrTail, ""));
    }

    /** The end of {@code text} that fits in {@value #TAIL_BYTES} UTF-8 bytes, cut at a character boundary. */
    public static String tail(String text) {
        if (text.length() * 3L <= TAIL_BYTES) {
            return text;
        }
        int bytes = 0;
        int start = text.length();
        while (start > 0) {
            int cp = text.codePointBefore(start);
            int size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
            if (bytes + size > TAIL_BYTES) {
                break;
            }
            bytes += size;
            start -= Character.charCount(cp);
        }
        return text.substring(start);
    }
}
