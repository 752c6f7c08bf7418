package io.sandboxfactory.tck;

import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.SandboxNotReadyException;
import io.sandboxfactory.api.SandboxStatus;
import io.sandboxfactory.api.StartOutcome;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import static io.sandboxfactory.tck.ContractBench.describe;
import static io.sandboxfactory.tck.ContractBench.probe;
import static io.sandboxfactory.tck.ContractRule.DESTROY;
import static io.sandboxfactory.tck.ContractRule.INVENTORY_LISTING;
import static io.sandboxfactory.tck.ContractRule.STOP;
import static io.sandboxfactory.tck.ContractRule.VANISHED_SANDBOX;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** stop() and destroy() are idempotent; destroy removes the sandbox for good; a vanished sandbox says so. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class StopDestroyCases {

    abstract ContractBench bench();

    @Test
    @Order(1)
    @DisplayName("stop() twice, and stop() of a second instance of a stopped session, succeed; start() then works again")
    void stopIsIdempotent() {
        String session = bench().newSessionId("stop");
        MastraSandbox<?> sandbox = bench().create(session);
        STOP.perform("starting session '" + session + "'", sandbox::start);

        STOP.perform("the first stop() of session '" + session + "'", sandbox::stop);
        STOP.perform("a second stop() of session '" + session + "'", sandbox::stop);
        STOP.requireEquals(SandboxStatus.STOPPED, sandbox.status(), "the status after two stop() calls");
        MastraSandbox<?> other = bench().create(session);
        STOP.perform("stop() of an unstarted instance of the stopped session '" + session + "'", other::stop);

        STOP.perform("start() after stop() of session '" + session + "'", sandbox::start);
        STOP.requireEquals(SandboxStatus.RUNNING, sandbox.status(), "the status after start() following stop()");
        STOP.requireEquals(StartOutcome.CONNECTED, sandbox.lastStartOutcome().orElse(null), "the outcome of start() after stop()");
    }

    @Test
    @Order(2)
    @DisplayName("destroy() twice succeeds and is final: start() and commands fail, a new instance starts from scratch")
    void destroyIsIdempotentAndFinal() {
        String session = bench().newSessionId("destroy");
        MastraSandbox<?> sandbox = bench().create(session);
        DESTROY.perform("starting session '" + session + "'", sandbox::start);
        probe(DESTROY, sandbox, "printf %s doomed > tck-doomed.txt");

        DESTROY.perform("the first destroy() of session '" + session + "'", sandbox::destroy);
        DESTROY.perform("a second destroy() of session '" + session + "'", sandbox::destroy);
        DESTROY.requireEquals(SandboxStatus.DESTROYED, sandbox.status(), "the status after two destroy() calls");
        RuntimeException restart = failureOf(sandbox::start);
        DESTROY.require(restart instanceof SandboxDestroyedException, () -> "start() after destroy() "
                + describe(restart) + ", expected SandboxDestroyedException");
        RuntimeException command = failureOf(() -> sandbox.executeCommand("true"));
        DESTROY.require(command instanceof SandboxDestroyedException || command instanceof SandboxNotReadyException,
                () -> "executeCommand after destroy() " + describe(command)
                        + ", expected SandboxDestroyedException or SandboxNotReadyException");
        INVENTORY_LISTING.require(bench().listingsOf(session).isEmpty(), () -> "listSandboxes() still lists session '" + session + "' after destroy()");

        MastraSandbox<?> fresh = bench().create(session);
        DESTROY.perform("starting a new instance of the destroyed session '" + session + "'", fresh::start);
        DESTROY.requireEquals(StartOutcome.CREATED, fresh.lastStartOutcome().orElse(null),
                "the outcome of starting a new instance of a destroyed session");
        String seen = probe(DESTROY, fresh, "cat tck-doomed.txt 2>/dev/null || printf gone");
        DESTROY.requireEquals("gone", seen, "a file written before destroy(), read in the session's new sandbox");
    }

    @Test
    @Order(3)
    @DisplayName("destroy() of an instance that never started removes the session's sandbox, and a second destroy() tolerates it")
    void destroyReachesTheSandboxOfAnotherInstance() {
        String session = bench().newSessionId("reach");
        MastraSandbox<?> running = bench().create(session);
        MastraSandbox<?> alsoStarted = bench().create(session);
        DESTROY.perform("starting session '" + session + "'", running::start);
        DESTROY.perform("starting a second instance of session '" + session + "'", alsoStarted::start);

        MastraSandbox<?> remover = bench().create(session);
        DESTROY.perform("destroy() through an unstarted instance of session '" + session + "'", remover::destroy);
        DESTROY.perform("destroy() through another instance after the sandbox was already removed", alsoStarted::destroy);

        MastraSandbox<?> fresh = bench().create(session);
        DESTROY.perform("starting a new instance of session '" + session + "'", fresh::start);
        DESTROY.requireEquals(StartOutcome.CREATED, fresh.lastStartOutcome().orElse(null),
                "the outcome of starting session '" + session + "' after destroy() through an unstarted instance");
    }

    @Test
    @Order(4)
    @DisplayName("a command on a sandbox removed from outside fails with SandboxDestroyedException")
    void aVanishedSandboxSaysSo() {
        String session = bench().newSessionId("vanish");
        MastraSandbox<?> sandbox = bench().create(session);
        VANISHED_SANDBOX.perform("starting session '" + session + "'", sandbox::start);
        MastraSandbox<?> remover = bench().create(session);
        VANISHED_SANDBOX.perform("destroy() through a second instance of session '" + session + "'", remover::destroy);

        RuntimeException failure = failureOf(() -> sandbox.executeCommand("true"));
        VANISHED_SANDBOX.require(failure instanceof SandboxDestroyedException, () -> "a command on a sandbox that another instance "
                + "destroyed " + describe(failure) + ", expected SandboxDestroyedException");
    }

    private static RuntimeException failureOf(Runnable action) {
        try {
            action.run();
            return null;
        } catch (RuntimeException e) {
            return e;
        }
    }
}
