package io.sandboxfactory.core.session;

/** The long phases of opening and retiring a session, as reported to a {@link SessionListener}. */
public enum SessionPhase {
    /** Waiting for another process that is opening the same session. */
    WAITING_FOR_LEASE,
    /** Starting (creating or reconnecting) the sandbox; detail names the provider. */
    START,
    /** The provider made a new sandbox; detail is its id. */
    SANDBOX_CREATED,
    /** The provider found the session's existing sandbox (or this process holds it running); detail is its id. */
    SANDBOX_RECONNECTED,
    /** The new sandbox was made from a template; detail names it. */
    TEMPLATE,
    /** A template could not serve this open (it did not fit, or failed to start); the sandbox is made without it (detail says why). */
    TEMPLATE_SKIPPED,
    /** Reading the workspace state. */
    PROBE,
    /** Cloning a repository. */
    CLONE,
    /** Fetching an existing checkout. */
    FETCH,
    /** Checking out the session branch. */
    CHECKOUT,
    /** Uncommitted work would have been overwritten: the checkout stays on its current branch (detail says which). */
    BRANCH_KEPT,
    /** The session branch was strictly behind its upstream and clean: fast-forwarded (detail says to what). */
    FAST_FORWARDED,
    /** The session branch is behind its upstream but dirty or diverged: left untouched (detail says how it stands). */
    NOT_FAST_FORWARDED,
    /** Running a setup command. */
    SETUP,
    /** A setup command is skipped because it already failed in this session. */
    SETUP_SKIPPED,
    /** Running the workspace setup of an environment. */
    WORKSPACE_SETUP,
    /** Running teardown commands. */
    TEARDOWN,
    /** The session's sandbox was found gone; a fresh one is started and the failed command replayed once (detail says why). */
    REVIVE,
    /** The sandbox is ready. */
    READY;

    /** Whether the output of this phase's commands is shown to listeners (it is the user's to read). */
    public boolean showsOutput() {
        return this == CLONE || this == FETCH || this == SETUP || this == WORKSPACE_SETUP || this == TEARDOWN;
    }
}
