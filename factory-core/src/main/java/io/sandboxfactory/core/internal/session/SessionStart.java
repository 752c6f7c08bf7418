package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.CommandExecutor;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.ExecutableSandbox;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.StartOutcome;
import io.sandboxfactory.api.support.Sandboxes;
import io.sandboxfactory.core.internal.setup.LogText;
import io.sandboxfactory.core.internal.template.TemplateUse;
import io.sandboxfactory.core.session.SessionPhase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * One preparation of a session's sandbox, as the pipeline's workspace steps see it: the plan, the
 * generation the instance was made in, the sandbox and how it was reached, and the commands' way
 * into it. It keeps the phase the steps are in, so long phases (clone, setup) stream their output
 * to the listener, redacted.
 */
final class SessionStart {

    private static final Logger LOG = LoggerFactory.getLogger(SessionStart.class);

    private final SessionPlan plan;
    private final long generation;
    private final ExecutableSandbox sandbox;
    private final StartOutcome outcome;
    private final Optional<TemplateUse> madeFrom;
    private final Supplier<Optional<SessionEntry>> entry;
    private final Optional<String> requestedWorkdir;
    private final SessionServices services;
    private final CommandExecutor exec;
    private volatile SessionPhase currentPhase;
    private volatile UnaryOperator<String> redaction;

    /**
     * @param madeFrom the template the instance was made with, when this start created it
     * @param entry the sandbox's memo entry, empty once evicted
     * @param requestedWorkdir the session root to use when the sandbox reports none
     */
    SessionStart(SessionPlan plan, long generation, ExecutableSandbox sandbox, CommandExecutor raw, StartOutcome outcome,
                 Optional<TemplateUse> madeFrom, Supplier<Optional<SessionEntry>> entry, Optional<String> requestedWorkdir,
                 SessionServices services) {
        this.plan = Objects.requireNonNull(plan, "plan");
        this.generation = generation;
        this.sandbox = Objects.requireNonNull(sandbox, "sandbox");
        this.outcome = Objects.requireNonNull(outcome, "outcome");
        this.madeFrom = Objects.requireNonNull(madeFrom, "madeFrom");
        this.entry = Objects.requireNonNull(entry, "entry");
        this.requestedWorkdir = Objects.requireNonNull(requestedWorkdir, "requestedWorkdir");
        this.services = Objects.requireNonNull(services, "services");
        this.exec = observed(Objects.requireNonNull(raw, "raw"));
        this.redaction = plan.setupSecrets().redaction();
    }

    String id() {
        return plan.sessionId();
    }

    SessionPlan plan() {
        return plan;
    }

    long generation() {
        return generation;
    }

    ExecutableSandbox sandbox() {
        return sandbox;
    }

    StartOutcome outcome() {
        return outcome;
    }

    Optional<TemplateUse> madeFrom() {
        return madeFrom;
    }

    Optional<SessionEntry> entry() {
        return entry.get();
    }

    Optional<String> requestedWorkdir() {
        return requestedWorkdir;
    }

    /** Commands of this start: logged, told to the listener, and streamed while a phase shows output. */
    CommandExecutor exec() {
        return exec;
    }

    Optional<String> sandboxId() {
        return sandbox instanceof MastraSandbox<?> mastra ? mastra.sandboxId() : Optional.empty();
    }

    /**
     * How output of this start is redacted (the minted tokens), from the materialize step on; the
     * plan's setup secrets are masked throughout, so the setup's output never shows them.
     */
    void redactWith(UnaryOperator<String> redact) {
        Objects.requireNonNull(redact, "redact");
        UnaryOperator<String> secrets = plan.setupSecrets().redaction();
        redaction = text -> redact.apply(secrets.apply(text));
    }

    UnaryOperator<String> redaction() {
        return redaction;
    }

    void phase(SessionPhase phase, String detail) {
        currentPhase = phase;
        services.phase(id(), phase, detail);
    }

    /** The next commands' output is the factory's to parse, not progress for the user to read. */
    void quiet() {
        currentPhase = null;
    }

    private CommandExecutor observed(CommandExecutor raw) {
        return (command, args, options) -> {
            String line = Sandboxes.join(command, args);
            LOG.debug("Session '{}' runs: {}", id(), LogText.abbreviate(line));
            try {
                services.listener().onCommand(id(), line);
            } catch (RuntimeException e) {
                LOG.debug("Session listener failed: {}", e.toString());
            }
            return raw.executeCommand(command, args, streamed(options));
        };
    }

    private CommandOptions streamed(CommandOptions options) {
        SessionPhase phase = currentPhase;
        if (phase == null || !phase.showsOutput()) {
            return options;
        }
        UnaryOperator<String> redact = redaction;
        Consumer<String> forward = chunk -> services.output(id(), phase, redact.apply(chunk));
        return options.toBuilder()
                .onStdout(options.onStdout().map(own -> own.andThen(forward)).orElse(forward))
                .onStderr(options.onStderr().map(own -> own.andThen(forward)).orElse(forward))
                .build();
    }
}
