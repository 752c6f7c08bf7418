package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.CommandExecutor;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.egress.EgressEvent;
import io.sandboxfactory.store.api.JournalEntry;
import io.sandboxfactory.store.api.SessionStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Records every command run in a session in the session store's journal (design §7.1): when it
 * started, how long it ran, who ran it, the command line as given, how it ended and the tails of its
 * output, redacted of the session's tokens. The journal is a record, never a reason to fail, but
 * no entry goes missing unnoticed: a failed append is tried once more (a pooled connection that
 * broke in an outage fails one operation even after the server is back; a retry of an append whose
 * commit did land only records the command twice), and one that still fails is reported as a
 * warning, which the CLI prints on the command's stderr. The command's result stands either way.
 */
public final class CommandJournal {

    /** Who runs commands through a factory that was not told: a host program using the Java API. */
    public static final String API = "api";
    /** The origin of the egress proxy's decisions. */
    public static final String EGRESS = "egress";

    private static final Logger LOG = LoggerFactory.getLogger(CommandJournal.class);
    private static final CommandJournal NONE = new CommandJournal(null, API, 0, Clock.systemUTC());

    private final SessionStore store;
    private final String origin;
    private final int keep;
    private final Clock clock;

    /**
     * @param origin what user commands are recorded as having come from ({@code api}, {@code cli},
     *     {@code daemon}, {@code mcp})
     * @param keep entries kept per session (the oldest go first); 0 records nothing
     */
    public CommandJournal(SessionStore store, String origin, int keep, Clock clock) {
        if (keep < 0) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "The command journal cannot keep " + keep + " entries; give 0 (off) or more.");
        }
        this.store = store;
        this.origin = Objects.requireNonNull(origin, "origin");
        this.keep = keep;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** A journal that records nothing. */
    public static CommandJournal none() {
        return NONE;
    }

    /** What user commands of this factory are recorded as having come from. */
    public String origin() {
        return origin;
    }

    Instant now() {
        return clock.instant();
    }

    /** Records a command that ran (and so has a result) from {@code origin}. */
    public void record(String sessionId, String origin, String command, Instant started, CommandResult result,
                       UnaryOperator<String> redact) {
        if (store == null || keep == 0) {
            return;
        }
        Duration duration = result.executionTime().isZero() ? Duration.between(started, clock.instant()) : result.executionTime();
        JournalEntry entry = new JournalEntry(sessionId, started, duration, origin, redact.apply(command), result.exitCode(),
                result.timedOut(), redact.apply(window(result.stdout())), redact.apply(window(result.stderr())));
        append(entry, "The command ran (exit " + result.exitCode() + ")");
    }

    /**
     * Records what the egress proxy decided for a connection of the session's sandbox, as an entry
     * from {@code egress} that took no time: its line names the host, port, decision and rule; exit
     * code 0 for an allowed connection, 1 for a denied one.
     */
    public void recordEgress(EgressEvent event) {
        if (store == null || keep == 0) {
            return;
        }
        append(new JournalEntry(event.sessionId(), event.at(), Duration.ZERO, EGRESS, event.describe(), event.allowed() ? 0 : 1, false,
                "", ""), "The egress decision (" + event.describe() + ")");
    }

    /** Appends {@code entry}, once more after a failure; {@code what} says what happened when both fail. */
    private void append(JournalEntry entry, String what) {
        try {
            store.appendJournal(entry, keep);
        } catch (RuntimeException first) {
            LOG.debug("Recording in the journal of session '{}' failed once; trying again: {}", entry.sessionId(), first.getMessage());
            try {
                store.appendJournal(entry, keep);
            } catch (RuntimeException e) {
                LOG.warn("{} could not be recorded in the journal of session '{}': {}", what, entry.sessionId(), e.getMessage());
            }
        }
    }

    /**
     * The end of {@code output}, twice as long as an entry keeps: redacted before the entry cuts it
     * to its tail, so a token cut in half at the window's start falls outside what is kept.
     */
    private static String window(String output) {
        int from = Math.max(0, output.length() - 2 * JournalEntry.TAIL_BYTES);
        return output.substring(from);
    }

    /**
     * {@code exec}, recording each command it runs as {@code shown} (the commands as the user gave
     * them, not the script that runs them) from {@code origin} ({@code setup}, {@code teardown}).
     */
    public CommandExecutor recording(CommandExecutor exec, String sessionId, String origin, String shown, UnaryOperator<String> redact) {
        return new CommandExecutor() {
            @Override
            public CommandResult executeCommand(String command, List<String> args, CommandOptions options) {
                Instant started = now();
                CommandResult result = exec.executeCommand(command, args, options);
                record(sessionId, origin, shown, started, result, redact);
                return result;
            }
        };
    }
}
