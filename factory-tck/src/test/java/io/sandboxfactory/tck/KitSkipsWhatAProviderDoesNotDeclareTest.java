package io.sandboxfactory.tck;

import io.sandboxfactory.tck.fixtures.DirectoryConfig;
import io.sandboxfactory.tck.fixtures.DirectoryProvider;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A provider that legally lacks EXEC passes the kit: the command cases are skipped with a message
 * naming the capability, and the kit checks instead that commands are refused.
 */
class KitSkipsWhatAProviderDoesNotDeclareTest {

    static class NoExecRun extends ProviderContractTest<DirectoryConfig> {
        @Override
        protected ProviderUnderTest<DirectoryConfig> providerUnderTest() {
            return ProviderUnderTest.of(new DirectoryProvider.NoExec(), dir -> new DirectoryConfig(dir.toString()));
        }
    }

    @Test
    void aProviderWithoutExecPassesWithCommandCasesSkipped() {
        KitOutcome outcome = KitOutcome.run(NoExecRun.class);

        assertThat(outcome.containerFailures()).isEmpty();
        assertThat(outcome.failed()).isEmpty();
        assertThat(outcome.succeeded()).contains("Capabilities.execMatchesDeclaration", "IdKeyed.twoInstancesReachOneSandbox",
                "StopAndDestroy.destroyIsIdempotentAndFinal", "Start.concurrentStartsCoalesce");
        assertThat(outcome.aborted()).containsKeys("Commands.exitCodes", "Environment.perCallBeatsOverlay",
                "Timeouts.timeoutKillsTheProcessTree", "Start.hookCommandsRunDuringStart", "StopAndDestroy.aVanishedSandboxSaysSo");
        assertThat(outcome.aborted().get("Commands.exitCodes"))
                .contains("Provider 'tck-no-exec' does not declare EXEC: executeCommand is not checked.");
    }
}
