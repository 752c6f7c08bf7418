package io.sandboxfactory.tck;

import io.sandboxfactory.tck.fixtures.DirectoryConfig;
import io.sandboxfactory.tck.fixtures.DirectoryProvider;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The kit fails deliberately broken providers on exactly the rule each breaks. Each broken
 * provider differs from the reference ({@link ReferenceProviderTckTest}, which passes) in one flaw
 * only; its root case carries that rule's fix, every other failure names that case as its likely
 * root cause, and the summary lists that one rule.
 */
class KitCatchesBrokenProvidersTest {

    /** The kit on one broken fixture provider, each session a directory under the test's own one. */
    abstract static class BrokenRun extends ProviderContractTest<DirectoryConfig> {
        BrokenRun(DirectoryProvider provider) {
            super(provider, dir -> new DirectoryConfig(dir.toString()));
        }
    }

    static class NewSandboxEveryStartRun extends BrokenRun {
        NewSandboxEveryStartRun() {
            super(new DirectoryProvider.NewSandboxEveryStart());
        }
    }

    static class IgnoresTimeoutsRun extends BrokenRun {
        IgnoresTimeoutsRun() {
            super(new DirectoryProvider.IgnoresTimeouts());
        }
    }

    static class LeaksEnvRun extends BrokenRun {
        LeaksEnvRun() {
            super(new DirectoryProvider.LeaksEnv());
        }
    }

    static class DestroysOnlyOwnRun extends BrokenRun {
        DestroysOnlyOwnRun() {
            super(new DirectoryProvider.DestroysOnlyOwn());
        }
    }

    static class LosesFilesOnStopRun extends BrokenRun {
        LosesFilesOnStopRun() {
            super(new DirectoryProvider.LosesFilesOnStop());
        }
    }

    static class DropsEnvRun extends BrokenRun {
        DropsEnvRun() {
            super(new DirectoryProvider.DropsEnv());
        }
    }

    static class StaleInventoryRun extends BrokenRun {
        StaleInventoryRun() {
            super(new DirectoryProvider.StaleInventory());
        }
    }

    static class SecretInAttachRun extends BrokenRun {
        SecretInAttachRun() {
            super(new DirectoryProvider.SecretInAttach());
        }
    }

    @Test
    void aProviderThatCreatesANewSandboxOnEveryStartBreaksIdKeyedGetOrCreate() {
        KitOutcome outcome = KitOutcome.run(NewSandboxEveryStartRun.class);

        assertBrokenOnly(outcome, ContractRule.ID_KEYED, "IdKeyed.twoInstancesReachOneSandbox");
        assertThat(outcome.failed()).containsKeys("IdKeyed.aFreshlyOpenedProviderReconnects", "IdKeyed.filesSurviveStop",
                "StopAndDestroy.stopIsIdempotent", "StopAndDestroy.aVanishedSandboxSaysSo", "Sessions.aWarmRestartInANewFactorySkipsSetup");
        assertThat(outcome.failed().get("IdKeyed.twoInstancesReachOneSandbox"))
                .contains("Rule 'id-keyed get-or-create' broken: two sandboxes for session 'tck-same-")
                .contains("reached different physical sandboxes (ids ");
        assertThat(outcome.failed().get("IdKeyed.aFreshlyOpenedProviderReconnects"))
                .startsWith("Likely a consequence of: the sandbox is not id-keyed — see case"
                        + " 'id-keyed get-or-create › two instances for one session, both started, reach one physical sandbox'")
                .doesNotContain(ContractRule.RECONNECT.fix());
        assertThat(outcome.failed().get("Sessions.aWarmRestartInANewFactorySkipsSetup"))
                .contains("the start outcome of the session in a new factory was CREATED, expected CONNECTED.")
                .doesNotContain(ContractRule.SESSION_WARM_RESTART.fix());
    }

    @Test
    void aProviderThatIgnoresTimeoutsBreaksTheTimeoutRule() {
        KitOutcome outcome = KitOutcome.run(IgnoresTimeoutsRun.class);

        assertBrokenOnly(outcome, ContractRule.TIMEOUT, "Timeouts.timeoutKillsTheProcessTree");
        assertThat(outcome.failed().get("Timeouts.timeoutKillsTheProcessTree"))
                .contains("Rule 'timeouts kill the command' broken: a command that sleeps 15s with a 2s timeout reported exitCode 0,"
                        + " timedOut=false, expected 124 and true.");
    }

    @Test
    void aProviderThatLeaksEnvironmentBetweenCommandsBreaksThePerCallEnvironmentRule() {
        KitOutcome outcome = KitOutcome.run(LeaksEnvRun.class);

        assertBrokenOnly(outcome, ContractRule.ENV_PER_CALL, "Environment.environmentDoesNotLeak");
        assertThat(outcome.failed()).containsOnlyKeys("Environment.environmentDoesNotLeak");
        assertThat(outcome.failed().get("Environment.environmentDoesNotLeak"))
                .contains("Rule 'environment does not leak between commands' broken: TCK_A|TCK_B|TCK_C in a command after one that"
                        + " set TCK_B per call was 'overlay|first-call|unset', expected 'overlay|unset|unset'.");
    }

    @Test
    void aProviderWhoseDestroyReachesOnlyItsOwnInstanceBreaksTheDestroyRule() {
        assertBrokenOnly(KitOutcome.run(DestroysOnlyOwnRun.class), ContractRule.DESTROY, "StopAndDestroy.destroyReachesTheSandboxOfAnotherInstance");
    }

    @Test
    void aProviderThatClaimsFilesSurviveStopFalselyBreaksTheFilesRule() {
        assertBrokenOnly(KitOutcome.run(LosesFilesOnStopRun.class), ContractRule.FILES_KEPT, "IdKeyed.filesSurviveStop");
    }

    @Test
    void aProviderThatDropsTheEnvironmentOverlayBreaksTheEnvironmentPrecedenceRule() {
        assertBrokenOnly(KitOutcome.run(DropsEnvRun.class), ContractRule.ENV_PRECEDENCE, "Environment.perCallBeatsOverlay");
    }

    @Test
    void anInventoryThatListsADestroyedSessionBreaksTheInventoryRule() {
        assertBrokenOnly(KitOutcome.run(StaleInventoryRun.class), ContractRule.INVENTORY_LISTING, "StopAndDestroy.destroyIsIdempotentAndFinal");
    }

    @Test
    void anAttachWithAVariablesValueOnItsCommandLineBreaksTheAttachRule() {
        KitOutcome outcome = KitOutcome.run(SecretInAttachRun.class);

        assertBrokenOnly(outcome, ContractRule.ATTACH_NO_SECRET, "Capabilities.attachKeepsValuesOffTheCommandLine");
        assertThat(outcome.failed()).containsOnlyKeys("Capabilities.attachKeepsValuesOffTheCommandLine");
        assertThat(outcome.failed().get("Capabilities.attachKeepsValuesOffTheCommandLine"))
                .contains("has the value of its variable TCK_ATTACH_SECRET on its command line [env, TCK_ATTACH_SECRET=tck-secret-tck-attach-");
    }

    /**
     * The run fails on {@code rule} only: {@code rootCase} gives that rule's fix, every other
     * failure is either the same rule or names the root cause first, no failure carries another
     * rule's fix, and the summary lists that one rule.
     */
    private static void assertBrokenOnly(KitOutcome outcome, ContractRule rule, String rootCase) {
        assertThat(outcome.containerFailures()).isEmpty();
        assertThat(outcome.failed()).containsKey(rootCase);
        assertThat(outcome.failed().get(rootCase))
                .startsWith("Rule '" + rule.title() + "' broken: ")
                .contains(rule.fix());
        assertThat(outcome.failed().values()).allSatisfy(message -> {
            assertThat(message).satisfiesAnyOf(
                    m -> assertThat(m).startsWith("Rule '" + rule.title() + "' broken: "),
                    m -> assertThat(m).startsWith("Likely a consequence of: ").contains(" — see case '"));
            for (ContractRule other : ContractRule.values()) {
                if (other != rule) {
                    assertThat(message).doesNotContain(other.fix());
                }
            }
        });
        assertThat(outcome.summary())
                .contains("rules broken, root causes first:\n1. " + rule.title() + " — case '")
                .doesNotContain("\n2. ");
    }
}
