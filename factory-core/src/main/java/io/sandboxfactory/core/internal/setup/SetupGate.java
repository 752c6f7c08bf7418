package io.sandboxfactory.core.internal.setup;

import jakarta.inject.Inject;
import io.sandboxfactory.api.CommandExecutor;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.core.session.SetupCommandException;
import io.sandboxfactory.store.api.Fence;
import io.sandboxfactory.store.api.SessionStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Runs a setup unit at most once per sandbox (design §5.3, §5.4 step 4). A unit is done when the
 * probe saw its checkout and its marker holds {@link SetupCommands#markerContent()}. Otherwise, if
 * this exact command text already failed in the session (the record lives in the {@link
 * SessionStore}, so it holds across processes), it is skipped with a warning; else it runs, and on
 * failure the command is recorded and a {@link SetupCommandException} returned. Writing the marker
 * is left to the caller, who does it only after success.
 */
public final class SetupGate {

    private static final Logger LOG = LoggerFactory.getLogger(SetupGate.class);

    /** What happened to a unit. */
    public enum Status {
        /** The marker says it ran before in this sandbox. */
        ALREADY_DONE,
        /** It failed earlier in this session; skipped with a warning. */
        SKIPPED_AFTER_FAILURE,
        /** It ran and succeeded: the caller writes the marker. */
        SUCCEEDED,
        /** It ran and failed: recorded for the session. */
        FAILED
    }

    /**
     * One setup unit.
     *
     * @param label names it in logs ("setup", "setup of repo x", "workspace setup")
     * @param commands what to run
     * @param directory where to run it
     * @param done whether the probe saw it done (checkout present, marker matching)
     */
    public record Unit(String label, SetupCommands commands, String directory, boolean done) {
    }

    /**
     * The outcome of a unit.
     *
     * @param failure set when {@link Status#FAILED}
     */
    public record Outcome(Status status, Optional<SetupCommandException> failure) {
    }

    private final SessionStore store;

    @Inject
    public SetupGate(SessionStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /**
     * Runs {@code unit} unless it is done or already failed.
     *
     * @param failedBefore the session's failed command texts, read once per start
     * @param secrets given to the setup's environment (a per-call env: no later command sees them); must be complete when it runs
     * @param redact removes secrets from output before it reaches a message or a log
     * @param fence the lease the caller holds; recording a failure is refused once it was taken over
     */
    public Outcome run(CommandExecutor exec, String sessionId, Unit unit, Set<String> failedBefore, Duration timeout,
                       SetupSecrets secrets, UnaryOperator<String> redact, Fence fence) {
        if (unit.commands().isEmpty() || unit.done()) {
            return new Outcome(Status.ALREADY_DONE, Optional.empty());
        }
        if (failedBefore.contains(unit.commands().text())) {
            LOG.warn("Skipping the {} of session '{}': this exact command already failed in this session. Fix the command or run it manually.",
                    unit.label(), sessionId);
            return new Outcome(Status.SKIPPED_AFTER_FAILURE, Optional.empty());
        }
        secrets.requireComplete();
        LOG.info("Running the {} of session '{}'", unit.label(), sessionId);
        CommandResult result = exec.executeCommand(unit.commands().scriptIn(unit.directory()), List.of(),
                CommandOptions.builder().timeout(timeout).maxRetainedBytes(256 * 1024).env(secrets.values()).build());
        if (result.success()) {
            return new Outcome(Status.SUCCEEDED, Optional.empty());
        }
        store.recordFailedSetupCommand(sessionId, unit.commands().text(), fence);
        SetupCommandException failure = new SetupCommandException(result.exitCode(), redact.apply(result.stdout()),
                redact.apply(result.stderr()));
        LOG.warn("The {} of session '{}' failed (exit {}{}): {}", unit.label(), sessionId, result.exitCode(),
                result.timedOut() ? ", timed out" : "",
                LogText.abbreviate(redact.apply((result.stderr().isBlank() ? result.stdout() : result.stderr()).strip())));
        return new Outcome(Status.FAILED, Optional.of(failure));
    }
}
