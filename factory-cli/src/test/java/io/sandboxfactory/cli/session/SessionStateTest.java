package io.sandboxfactory.cli.session;

import io.sandboxfactory.api.capability.SandboxListing;
import io.sandboxfactory.api.SandboxStatus;
import io.sandboxfactory.store.api.SessionDefinition;
import io.sandboxfactory.store.api.SessionRecord;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class SessionStateTest {

    private static final Instant T = Instant.parse("2025-01-01T00:00:00Z");
    private static final SessionState.Sighting UP = new SessionState.Listed(SandboxListing.State.UP);

    private static SessionRecord record(boolean started, boolean stopped) {
        SessionDefinition definition = SessionDefinition.builder("s1", "/repo", "b").provider("local").build();
        return new SessionRecord(definition, Optional.empty(), Optional.empty(), started ? Optional.of(T) : Optional.empty(), 0, T, T,
                Optional.empty(), Optional.empty(), stopped ? Optional.of(T) : Optional.empty(), Map.of());
    }

    @Test
    void anUpSandboxIsIdleUntilACommandRunsInIt() {
        assertThat(SessionState.of(record(true, false), UP, false, false)).isEqualTo(SessionState.IDLE);
        assertThat(SessionState.of(record(true, false), UP, true, false)).isEqualTo(SessionState.RUNNING);
    }

    @Test
    void aRetirementsStopIsStoppedEvenWhereTheProviderListsItUp() {
        // The local provider has no compute to stop: its directory stays listed up.
        assertThat(SessionState.of(record(true, true), UP, false, false)).isEqualTo(SessionState.STOPPED);
        assertThat(SessionState.of(record(true, false), new SessionState.Listed(SandboxListing.State.STOPPED), false, false))
                .isEqualTo(SessionState.STOPPED);
    }

    @Test
    void whatTheProviderSaysOrCannotSayComesFirst() {
        assertThat(SessionState.of(record(true, false), new SessionState.NotListed(), true, false)).isEqualTo(SessionState.ABSENT);
        assertThat(SessionState.of(record(true, false), new SessionState.Unreachable(), true, true)).isEqualTo(SessionState.UNREACHABLE);
        assertThat(SessionState.of(record(true, false), new SessionState.Listed(SandboxListing.State.BROKEN), true, false))
                .isEqualTo(SessionState.FAILED);
        assertThat(SessionState.of(record(true, false), new SessionState.Listed(SandboxListing.State.PAUSED), false, false))
                .isEqualTo(SessionState.PAUSED);
    }

    @Test
    void aFailedSetupIsFailedUntilAnOpenSucceeds() {
        assertThat(SessionState.of(record(true, false), UP, true, true)).isEqualTo(SessionState.FAILED);
    }

    @Test
    void aProviderThatCannotListGoesByTheStore() {
        SessionState.Sighting unlisted = new SessionState.Unlisted();
        assertThat(SessionState.of(record(true, false), unlisted, false, false)).isEqualTo(SessionState.IDLE);
        assertThat(SessionState.of(record(true, false), unlisted, true, false)).isEqualTo(SessionState.RUNNING);
        assertThat(SessionState.of(record(false, false), unlisted, false, false)).isEqualTo(SessionState.STOPPED);
        assertThat(SessionState.of(record(true, true), unlisted, false, false)).isEqualTo(SessionState.STOPPED);
    }

    @Test
    void anOpenSandboxInstanceMapsToTheSameWords() {
        assertThat(SessionState.of(SandboxStatus.RUNNING, false)).isEqualTo(SessionState.IDLE);
        assertThat(SessionState.of(SandboxStatus.RUNNING, true)).isEqualTo(SessionState.RUNNING);
        assertThat(SessionState.of(SandboxStatus.STOPPED, false)).isEqualTo(SessionState.STOPPED);
        assertThat(SessionState.of(SandboxStatus.DESTROYED, false)).isEqualTo(SessionState.ABSENT);
        assertThat(SessionState.of(SandboxStatus.ERROR, false)).isEqualTo(SessionState.FAILED);
    }

    @Test
    void everyWordIsLowerCase() {
        assertThat(Arrays.stream(SessionState.values()).map(SessionState::toString))
                .containsExactly("running", "idle", "paused", "stopped", "absent", "failed", "unreachable");
    }
}
