package io.sandboxfactory.tck;

import io.sandboxfactory.tck.fixtures.DirectoryConfig;
import io.sandboxfactory.tck.fixtures.DirectoryProvider;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The kit fails deliberately broken providers, in exactly the cases that check the broken rule,
 * with that rule's message. Each broken provider differs from the reference ({@link
 * ReferenceProviderTckTest}, which passes) in one flaw only.
 */
class KitCatchesBrokenProvidersTest {

    static class NewSandboxEveryStartRun extends ProviderContractTest<DirectoryConfig> {
        @Override
        protected ProviderUnderTest<DirectoryConfig> providerUnderTest() {
            return ProviderUnderTest.of(new DirectoryProvider.NewSandboxEveryStart(), dir -> new DirectoryConfig(dir.toString()));
        }
    }

    static class IgnoresTimeoutsRun extends ProviderContractTest<DirectoryConfig> {
        @Override
        protected ProviderUnderTest<DirectoryConfig> providerUnderTest() {
            return ProviderUnderTest.of(new DirectoryProvider.IgnoresTimeouts(), dir -> new DirectoryConfig(dir.toString()));
        }
    }

    static class LeaksEnvRun extends ProviderContractTest<DirectoryConfig> {
        @Override
        protected ProviderUnderTest<DirectoryConfig> providerUnderTest() {
            return ProviderUnderTest.of(new DirectoryProvider.LeaksEnv(), dir -> new DirectoryConfig(dir.toString()));
        }
    }

    @Test
    void aProviderThatCreatesANewSandboxOnEveryStartBreaksIdKeyedGetOrCreate() {
        KitOutcome outcome = KitOutcome.run(NewSandboxEveryStartRun.class);

        assertThat(outcome.containerFailures()).isEmpty();
        assertThat(outcome.failed()).containsOnlyKeys("IdKeyed.twoInstancesReachOneSandbox", "IdKeyed.aFreshInstanceReconnectsAfterStop",
                "IdKeyed.aFreshlyOpenedProviderReconnects", "IdKeyed.filesSurviveStop", "StopAndDestroy.stopIsIdempotent",
                "StopAndDestroy.aVanishedSandboxSaysSo", "Sessions.aStoppedSessionReopensWithoutSetup",
                "Sessions.aWarmRestartInANewFactorySkipsSetup");
        assertEveryFailureNamesItsRule(outcome);
        assertThat(outcome.failed().get("IdKeyed.twoInstancesReachOneSandbox"))
                .contains("Rule 'id-keyed get-or-create' broken: two sandboxes for session 'tck-same-")
                .contains("reached different physical sandboxes (ids ")
                .contains("Make find() locate the sandbox created for the same session id");
        assertThat(outcome.failed().get("StopAndDestroy.aVanishedSandboxSaysSo"))
                .contains("Rule 'a vanished sandbox surfaces as SandboxDestroyedException' broken: a command on a sandbox that another"
                        + " instance destroyed succeeded, expected SandboxDestroyedException.");
        assertThat(outcome.failed().get("IdKeyed.aFreshlyOpenedProviderReconnects")).contains("Rule 'reconnect across processes' broken");
        assertThat(outcome.failed().get("Sessions.aWarmRestartInANewFactorySkipsSetup"))
                .contains("Rule 'a warm restart reconnects and skips setup' broken: the start outcome of the session in a new factory"
                        + " was CREATED, expected CONNECTED.");
    }

    private static void assertEveryFailureNamesItsRule(KitOutcome outcome) {
        assertThat(outcome.failed().values()).allSatisfy(message ->
                assertThat(message).startsWith("org.opentest4j.AssertionFailedError: Rule '").contains("' broken: "));
    }

    @Test
    void aProviderThatIgnoresTimeoutsBreaksTheTimeoutRule() {
        KitOutcome outcome = KitOutcome.run(IgnoresTimeoutsRun.class);

        assertThat(outcome.containerFailures()).isEmpty();
        assertThat(outcome.failed()).containsOnlyKeys("Timeouts.timeoutKillsTheProcessTree");
        assertEveryFailureNamesItsRule(outcome);
        assertThat(outcome.failed().get("Timeouts.timeoutKillsTheProcessTree"))
                .contains("Rule 'timeouts kill the command' broken: a command that sleeps 15s with a 2s timeout reported exitCode 0,"
                        + " timedOut=false, expected 124 and true.")
                .contains("kill the command's whole process tree and return exitCode 124 with timedOut=true");
    }

    @Test
    void aProviderThatLeaksEnvironmentBetweenCommandsBreaksThePerCallEnvironmentRule() {
        KitOutcome outcome = KitOutcome.run(LeaksEnvRun.class);

        assertThat(outcome.containerFailures()).isEmpty();
        assertThat(outcome.failed()).containsOnlyKeys("Environment.environmentDoesNotLeak");
        assertEveryFailureNamesItsRule(outcome);
        assertThat(outcome.failed().get("Environment.environmentDoesNotLeak"))
                .contains("Rule 'environment does not leak between commands' broken: TCK_A|TCK_B|TCK_C in a command after one that"
                        + " set TCK_B per call was 'overlay|first-call|unset', expected 'overlay|unset|unset'.")
                .contains("Build a fresh environment for every command");
    }
}
