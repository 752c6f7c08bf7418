package io.sandboxfactory.tck;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The kit's summary counts the skipped cases and says why each was skipped. */
class KitSummaryTest {

    @Test
    void theSummaryCountsSkippedCasesAndNamesTheCapabilityEachMissed() {
        // The reference fixture declares neither INVENTORY nor FILE_TRANSFER: their cases are skipped.
        KitOutcome outcome = KitOutcome.run(ReferenceProviderTckTest.class);

        assertThat(outcome.failed()).isEmpty();
        assertThat(outcome.aborted()).isNotEmpty();
        assertThat(outcome.summary())
                .startsWith("Conformance kit run 'ReferenceProviderTckTest': " + outcome.succeeded().size() + " cases run, 0 failed, "
                        + outcome.aborted().size() + " skipped; every rule holds.\nSkipped, and why:")
                .contains("\n- Provider 'tck-directory' does not declare INVENTORY", "\n- Provider 'tck-directory' has no FILE_TRANSFER");
        assertThat(outcome.aborted().values()).allSatisfy(reason -> assertThat(outcome.summary())
                .contains("\n- " + reason.replaceFirst("^Assumption failed: ", "") + " ("));
    }
}
