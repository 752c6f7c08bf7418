package io.sandboxfactory.tck;

import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.support.Sandboxes;
import io.sandboxfactory.api.StartOutcome;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionSpec;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.sandboxfactory.api.SandboxCapability.FILES_SURVIVE_STOP;
import static io.sandboxfactory.api.SandboxCapability.RECONNECT_ACROSS_PROCESSES;
import static io.sandboxfactory.tck.ContractBench.probe;
import static io.sandboxfactory.tck.ContractRule.SESSION_MATERIALIZE;
import static io.sandboxfactory.tck.ContractRule.SESSION_SETUP_ONCE;
import static io.sandboxfactory.tck.ContractRule.SESSION_WARM_RESTART;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A whole session on the provider through {@code SandboxFactory.openSession}: the repository is
 * cloned into the sandbox, the session branch checked out, the setup command run once (its marker
 * written), and a warm restart reconnects and skips setup.
 */
abstract class SessionCases {

    static final String BRANCH = "tck/work";
    /** Appends a line per run inside .git, where the checkout's own files are not disturbed. */
    static final String SETUP = "echo run >> .git/tck-setup-runs";

    abstract ContractBench bench();

    abstract SessionBench sessions();

    @Test
    @DisplayName("openSession clones the repository, checks out the session branch and runs setup once")
    void aSessionMaterializesAndSetsUpOnce() throws Exception {
        String session = sessions().track(bench().newSessionId("session"));
        SessionSpec spec = spec(session);
        SandboxFactory factory = sessions().openFactory();

        SessionHandle handle = open(factory, spec);
        String checkout = requireMaterialized(handle);
        String marker = probe(SESSION_SETUP_ONCE, handle.sandbox(), "cat "
                + Sandboxes.quote(handle.workdir().orElseThrow() + "/.mastra-sandbox/setup")).strip();
        SESSION_SETUP_ONCE.require(marker.startsWith("sha256:"), () -> "the setup marker of session '" + session + "' reads '"
                + marker + "', expected sha256:<hex>");
        SESSION_SETUP_ONCE.requireEquals(1, setupRuns(handle.sandbox(), checkout), "the number of setup runs after the first open");

        open(factory, spec);
        SESSION_SETUP_ONCE.requireEquals(1, setupRuns(handle.sandbox(), checkout),
                "the number of setup runs after opening the open session again");
    }

    @Test
    @DisplayName("after retire(STOP), opening the session again in the same factory keeps the checkout and skips setup")
    void aStoppedSessionReopensWithoutSetup() throws Exception {
        assumeTrue(bench().declares(FILES_SURVIVE_STOP), () -> "Provider '" + bench().providerName()
                + "' does not declare FILES_SURVIVE_STOP: a stopped session may legitimately set up again.");
        String session = sessions().track(bench().newSessionId("reopen"));
        SessionSpec spec = spec(session);
        SandboxFactory factory = sessions().openFactory();
        SessionHandle first = open(factory, spec);
        String checkout = requireMaterialized(first);
        probe(SESSION_SETUP_ONCE, first.sandbox(), "printf %s unsaved > " + Sandboxes.quote(checkout + "/tck-work.txt"));

        SESSION_SETUP_ONCE.perform("retire(STOP) of session '" + session + "'", () -> factory.retire(session, RetireMode.STOP));
        SessionHandle again = open(factory, spec);

        SESSION_SETUP_ONCE.requireEquals(first.sandbox().sandboxId().orElse(null), again.sandbox().sandboxId().orElse(null),
                "the physical sandbox of session '" + session + "' after stop and reopen");
        String reopened = requireMaterialized(again);
        SESSION_SETUP_ONCE.requireEquals(1, setupRuns(again.sandbox(), reopened), "the number of setup runs after stop and reopen");
        SESSION_SETUP_ONCE.requireEquals("unsaved", probe(SESSION_SETUP_ONCE, again.sandbox(), "cat " + Sandboxes.quote(reopened + "/tck-work.txt")),
                "uncommitted work in the checkout after stop and reopen");
    }

    @Test
    @DisplayName("a warm restart in a new factory reconnects to the sandbox, keeps the work and skips setup")
    void aWarmRestartInANewFactorySkipsSetup() throws Exception {
        assumeTrue(bench().declares(FILES_SURVIVE_STOP) && bench().declares(RECONNECT_ACROSS_PROCESSES), () -> "Provider '"
                + bench().providerName() + "' does not declare both FILES_SURVIVE_STOP and RECONNECT_ACROSS_PROCESSES: warm restarts "
                + "from another process are not checked.");
        String session = sessions().track(bench().newSessionId("warm"));
        SessionSpec spec = spec(session);
        SandboxFactory first = sessions().openFactory();
        SessionHandle before = open(first, spec);
        String checkout = requireMaterialized(before);
        probe(SESSION_WARM_RESTART, before.sandbox(), "printf %s unsaved > " + Sandboxes.quote(checkout + "/tck-work.txt"));
        SESSION_WARM_RESTART.perform("retire(STOP) of session '" + session + "'", () -> first.retire(session, RetireMode.STOP));

        SandboxFactory second = sessions().openFactory();
        SessionHandle after = SESSION_WARM_RESTART.attempt("openSession for '" + session + "' in a new factory", () -> second.openSession(spec));

        SESSION_WARM_RESTART.requireEquals(StartOutcome.CONNECTED, after.sandbox().lastStartOutcome().orElse(null),
                "the start outcome of the session in a new factory");
        SESSION_WARM_RESTART.requireEquals(before.sandbox().sandboxId().orElse(null), after.sandbox().sandboxId().orElse(null),
                "the physical sandbox of the session in a new factory");
        String restarted = after.checkout().orElse(checkout);
        SESSION_WARM_RESTART.requireEquals(1, setupRuns(after.sandbox(), restarted), "the number of setup runs after a warm restart");
        SESSION_WARM_RESTART.requireEquals("unsaved", probe(SESSION_WARM_RESTART, after.sandbox(), "cat " + Sandboxes.quote(restarted + "/tck-work.txt")),
                "uncommitted work in the checkout after a warm restart");
        SESSION_WARM_RESTART.requireEquals(BRANCH, branchOf(after.sandbox(), restarted), "the branch checked out after a warm restart");
    }

    @Test
    @DisplayName("after retire(DESTROY), the session starts over in a new sandbox and sets up again")
    void aDestroyedSessionStartsOver() throws Exception {
        String session = sessions().track(bench().newSessionId("over"));
        SessionSpec spec = spec(session);
        SandboxFactory factory = sessions().openFactory();
        open(factory, spec);
        SESSION_SETUP_ONCE.perform("retire(DESTROY) of session '" + session + "'", () -> factory.retire(session, RetireMode.DESTROY));

        SessionHandle again = open(factory, spec);

        String checkout = requireMaterialized(again);
        SESSION_SETUP_ONCE.requireEquals(StartOutcome.CREATED, again.sandbox().lastStartOutcome().orElse(null),
                "the start outcome of a session reopened after retire(DESTROY)");
        SESSION_SETUP_ONCE.requireEquals(1, setupRuns(again.sandbox(), checkout), "the number of setup runs in the new sandbox");
    }

    private SessionSpec spec(String session) throws Exception {
        return SessionSpec.builder(session).repository(sessions().repository()).branch(BRANCH).baseBranch("main")
                .setupCommands(SETUP).build();
    }

    private static SessionHandle open(SandboxFactory factory, SessionSpec spec) {
        return SESSION_MATERIALIZE.attempt("openSession for '" + spec.sessionId() + "'", () -> factory.openSession(spec));
    }

    /** Checks the checkout is on the session branch with the fixture's README; returns its path. */
    private static String requireMaterialized(SessionHandle handle) {
        String checkout = handle.checkout().orElse(null);
        SESSION_MATERIALIZE.require(checkout != null, () -> "session '" + handle.sessionId() + "' reports no checkout after an eager open");
        SESSION_MATERIALIZE.requireEquals(BRANCH, branchOf(handle.sandbox(), checkout), "the branch checked out in session '"
                + handle.sessionId() + "'");
        SESSION_MATERIALIZE.requireEquals(FixtureRepository.README, probe(SESSION_MATERIALIZE, handle.sandbox(), "cat "
                + Sandboxes.quote(checkout + "/README.md")), "README.md of the checkout");
        return checkout;
    }

    private static String branchOf(MastraSandbox<?> sandbox, String checkout) {
        return probe(SESSION_MATERIALIZE, sandbox, Sandboxes.join("git", List.of("-C", checkout, "rev-parse", "--abbrev-ref", "HEAD"))).strip();
    }

    private static int setupRuns(MastraSandbox<?> sandbox, String checkout) {
        return (int) probe(SESSION_SETUP_ONCE, sandbox, "cat " + Sandboxes.quote(checkout + "/.git/tck-setup-runs") + " 2>/dev/null || true")
                .lines().filter(line -> line.equals("run")).count();
    }
}
