package io.sandboxfactory.cli.output;

import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.core.session.SessionPhase;

/** Turns the session machinery's phases into the CLI's progress lines. */
public final class ProgressListener implements SessionListener {

    private final PhaseReporter reporter;

    public ProgressListener(PhaseReporter reporter) {
        this.reporter = reporter;
    }

    @Override
    public void onPhase(String sessionId, SessionPhase phase, String detail) {
        String suffix = detail == null || detail.isBlank() ? "" : " " + detail;
        switch (phase) {
            case WAITING_FOR_LEASE -> reporter.begin("waiting for another process that is opening session " + sessionId);
            case START -> reporter.begin("opening sandbox" + (suffix.isEmpty() ? "" : " (" + detail.strip() + ")"));
            case SANDBOX_CREATED -> reporter.begin("created sandbox" + suffix);
            case SANDBOX_RECONNECTED -> reporter.begin("reconnected to sandbox" + suffix);
            case TEMPLATE -> reporter.begin("made from template" + suffix);
            case TEMPLATE_SKIPPED -> reporter.begin("warning: not using template" + suffix);
            case PROBE -> reporter.begin("checking the workspace");
            case CLONE -> reporter.begin("cloning" + suffix);
            case FETCH -> reporter.begin("fetching" + suffix);
            case CHECKOUT -> reporter.begin("checking out" + suffix);
            case SETUP -> reporter.begin("running setup");
            case SETUP_SKIPPED -> reporter.begin("skipping setup that already failed in this session" + suffix);
            case WORKSPACE_SETUP -> reporter.begin("running workspace setup" + suffix);
            case TEARDOWN -> reporter.begin("running teardown" + suffix);
            case BRANCH_KEPT -> reporter.begin("keeping the current branch" + suffix);
            case FAST_FORWARDED -> reporter.begin(detail);
            case NOT_FAST_FORWARDED -> reporter.begin("warning: the session branch is " + detail);
            case REVIVE -> reporter.begin("the sandbox is gone; starting a fresh one" + suffix);
            case READY -> reporter.done("ready");
        }
    }

    @Override
    public void onOutput(String sessionId, SessionPhase phase, String chunk) {
        reporter.detail(chunk);
    }
}
