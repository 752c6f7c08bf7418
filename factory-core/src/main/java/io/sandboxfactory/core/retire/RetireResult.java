package io.sandboxfactory.core.retire;

import java.util.List;
import java.util.Objects;

/**
 * What retiring one session did.
 *
 * @param sessionId the session
 * @param outcome retired, unknown (nothing to do), failed, or (a dry run) would be retired
 * @param problems the steps that failed, one sentence each (a failed teardown is logged, not a problem)
 */
public record RetireResult(String sessionId, Outcome outcome, List<String> problems) {

    /** How a retirement ended. */
    public enum Outcome {
        /** The session was retired (stopped, or destroyed and forgotten). */
        RETIRED,
        /** Neither the store nor this process knows the session: nothing was touched. */
        UNKNOWN,
        /** A step failed; the remaining steps still ran (in a dry run: the retirement would fail, for the reason given). */
        FAILED,
        /** A dry run: the session would be retired. */
        WOULD_RETIRE
    }

    public RetireResult {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(outcome, "outcome");
        problems = List.copyOf(problems);
    }

    public boolean failed() {
        return outcome == Outcome.FAILED;
    }

    /** One line for a person: {@code retired s1}, {@code no session 's1'}, {@code failed to retire s1: …}. */
    public String describe() {
        return switch (outcome) {
            case RETIRED -> "retired " + sessionId;
            case UNKNOWN -> "no session '" + sessionId + "'";
            case FAILED -> "failed to retire " + sessionId + ": " + String.join("; ", problems);
            case WOULD_RETIRE -> "would retire " + sessionId;
        };
    }
}
