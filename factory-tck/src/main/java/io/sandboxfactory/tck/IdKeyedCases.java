package io.sandboxfactory.tck;

import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.api.SandboxStatus;
import io.sandboxfactory.api.StartOutcome;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import static io.sandboxfactory.tck.ContractBench.probe;
import static io.sandboxfactory.tck.ContractRule.FILES_KEPT;
import static io.sandboxfactory.tck.ContractRule.ID_KEYED;
import static io.sandboxfactory.tck.ContractRule.RECONNECT;
import static io.sandboxfactory.tck.ContractRule.SESSION_ISOLATION;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Id-keyed get-or-create: every instance for one session reaches one physical sandbox, and only that session's. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class IdKeyedCases {

    abstract ContractBench bench();

    @Test
    @Order(1)
    @DisplayName("two instances for one session, both started, reach one physical sandbox")
    void twoInstancesReachOneSandbox() {
        String session = bench().newSessionId("same");
        MastraSandbox<?> a = bench().create(session);
        MastraSandbox<?> b = bench().create(session);

        ID_KEYED.perform("starting the first instance of session '" + session + "'", a::start);
        ID_KEYED.perform("starting the second instance of session '" + session + "'", b::start);

        requireSameSandbox(ID_KEYED, session, a, b);
        ID_KEYED.requireEquals(StartOutcome.CONNECTED, b.lastStartOutcome().orElse(null),
                "the start outcome of a second instance of session '" + session + "' whose sandbox was already running");
        String token = "shared-" + session;
        probe(ID_KEYED, a, "printf %s " + token + " > tck-shared.txt");
        String seen = probe(ID_KEYED, b, "cat tck-shared.txt 2>/dev/null || printf missing");
        ID_KEYED.require(seen.equals(token), () -> "a file written through one instance of session '" + session
                + "' reads '" + seen + "' through the other, expected '" + token + "'");
    }

    @Test
    @Order(2)
    @DisplayName("two sessions get two separate sandboxes")
    void sessionsAreIsolated() {
        String one = bench().newSessionId("one");
        String two = bench().newSessionId("two");
        MastraSandbox<?> a = bench().create(one);
        MastraSandbox<?> b = bench().create(two);
        SESSION_ISOLATION.perform("starting session '" + one + "'", a::start);
        SESSION_ISOLATION.perform("starting session '" + two + "'", b::start);

        SESSION_ISOLATION.require(!a.sandboxId().equals(b.sandboxId()), () -> "sessions '" + one + "' and '" + two
                + "' reached the same physical sandbox '" + a.sandboxId().orElse("?") + "'");
        probe(SESSION_ISOLATION, a, "printf %s mine > tck-isolated.txt");
        String seen = probe(SESSION_ISOLATION, b, "cat tck-isolated.txt 2>/dev/null || printf absent");
        SESSION_ISOLATION.require(seen.equals("absent"), () -> "a file written in session '" + one
                + "' is visible in session '" + two + "'");
    }

    @Test
    @Order(4)
    @DisplayName("after stop(), a fresh instance reconnects to the same sandbox")
    void aFreshInstanceReconnectsAfterStop() {
        String session = bench().newSessionId("restop");
        MastraSandbox<?> a = bench().create(session);
        ID_KEYED.perform("starting session '" + session + "'", a::start);
        writeMarker(ID_KEYED, a);
        ID_KEYED.perform("stopping session '" + session + "'", a::stop);

        MastraSandbox<?> b = bench().create(session);
        ID_KEYED.perform("starting a fresh instance of the stopped session '" + session + "'", b::start);

        requireSameSandbox(ID_KEYED, session, a, b);
        ID_KEYED.requireEquals(StartOutcome.CONNECTED, b.lastStartOutcome().orElse(null),
                "the start outcome of a fresh instance of the stopped session '" + session + "'");
        if (bench().declares(SandboxCapability.FILES_SURVIVE_STOP)) {
            requireMarker(FILES_KEPT, b, "after stop() and a fresh instance's start()");
        }
    }

    @Test
    @Order(3)
    @DisplayName("files survive stop() and the next start() of the same instance")
    void filesSurviveStop() {
        assumeTrue(bench().declares(SandboxCapability.FILES_SURVIVE_STOP), () -> "Provider '" + bench().providerName()
                + "' does not declare FILES_SURVIVE_STOP: files across stop() are not checked.");
        String session = bench().newSessionId("keep");
        MastraSandbox<?> sandbox = bench().create(session);
        FILES_KEPT.perform("starting session '" + session + "'", sandbox::start);
        writeMarker(FILES_KEPT, sandbox);
        String before = sandbox.sandboxId().orElse(null);

        FILES_KEPT.perform("stopping session '" + session + "'", sandbox::stop);
        FILES_KEPT.requireEquals(SandboxStatus.STOPPED, sandbox.status(), "the status after stop()");
        requireMarker(FILES_KEPT, sandbox, "after stop() and a lazy restart by executeCommand");

        FILES_KEPT.requireEquals(before, sandbox.sandboxId().orElse(null),
                "the physical id of session '" + session + "' after stop() and restart");
    }

    @Test
    @Order(5)
    @DisplayName("a freshly opened provider instance reconnects to a session's sandbox")
    void aFreshlyOpenedProviderReconnects() {
        assumeTrue(bench().declares(SandboxCapability.RECONNECT_ACROSS_PROCESSES), () -> "Provider '" + bench().providerName()
                + "' does not declare RECONNECT_ACROSS_PROCESSES: reconnecting from another process is not checked.");
        String session = bench().newSessionId("process");
        MastraSandbox<?> a = bench().create(session);
        RECONNECT.perform("starting session '" + session + "'", a::start);
        writeMarker(RECONNECT, a);
        RECONNECT.perform("stopping session '" + session + "'", a::stop);

        FactorySandbox secondProcess = RECONNECT.attempt("opening the provider a second time", bench()::reopen);
        FactorySandboxContext persisted = FactorySandboxContext.builder(session).sandboxId(a.sandboxId().orElseThrow()).build();
        MastraSandbox<?> b = bench().create(secondProcess, persisted);
        RECONNECT.perform("starting session '" + session + "' through the second provider instance", b::start);

        requireSameSandbox(RECONNECT, session, a, b);
        RECONNECT.requireEquals(StartOutcome.CONNECTED, b.lastStartOutcome().orElse(null),
                "the start outcome of session '" + session + "' through a freshly opened provider instance");
        if (bench().declares(SandboxCapability.FILES_SURVIVE_STOP)) {
            requireMarker(RECONNECT, b, "through a freshly opened provider instance");
        }
    }

    private static void requireSameSandbox(ContractRule rule, String session, MastraSandbox<?> a, MastraSandbox<?> b) {
        rule.require(a.sandboxId().isPresent() && a.sandboxId().equals(b.sandboxId()), () -> "two sandboxes for session '"
                + session + "' reached different physical sandboxes (ids " + a.sandboxId().orElse("none") + ", "
                + b.sandboxId().orElse("none") + ")");
    }

    private void writeMarker(ContractRule rule, MastraSandbox<?> sandbox) {
        probe(rule, sandbox, "printf %s " + marker(sandbox) + " > tck-marker.txt");
    }

    private void requireMarker(ContractRule rule, MastraSandbox<?> sandbox, String when) {
        String expected = marker(sandbox);
        String seen = probe(rule, sandbox, "cat tck-marker.txt 2>/dev/null || printf missing");
        rule.require(seen.equals(expected), () -> "a file written in session '" + sandbox.id() + "' reads '" + seen + "' "
                + when + ", expected '" + expected + "'");
    }

    private static String marker(MastraSandbox<?> sandbox) {
        return "marker-" + sandbox.id();
    }
}
