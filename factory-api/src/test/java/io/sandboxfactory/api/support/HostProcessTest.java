package io.sandboxfactory.api.support;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class HostProcessTest {

    @Test
    void thisProcessIsAliveAndAnExitedOneOfThisHostIsProvablyGone() throws Exception {
        HostProcess self = HostProcess.current();
        assertThat(self.isProvablyGone()).isFalse();

        Process exited = new ProcessBuilder("true").start();
        String stamp = HostProcess.startStampOf(exited.pid()).orElse("");
        exited.waitFor();
        HostProcess gone = new HostProcess(self.host(), exited.pid(), exited.info().startInstant().map(Instant::toEpochMilli).orElse(-1L),
                stamp);
        assertThat(gone.isProvablyGone()).isTrue();
    }

    @Test
    void withoutAStampALiveProcessWithAnotherStartTimeIsAStrangerThatReusedThePid() {
        HostProcess self = HostProcess.current();
        assertThat(new HostProcess(self.host(), self.pid(), self.startMillis() - 60_000, "").isProvablyGone()).isTrue();
    }

    /**
     * Run 7 of stress loop 24: after a step of the wall clock, a JVM saw a live host start more than
     * a second off what that host had recorded, and ended its commands and swept its session.
     */
    @Test
    void onLinuxTheStampDecidesSoAWallClockStepNeverMakesALiveProcessGone() {
        assumeTrue(Files.isRegularFile(Path.of("/proc/self/stat")), "a platform with /proc");
        HostProcess self = HostProcess.current();
        assertThat(self.startStamp()).startsWith(bootId() + ":");

        assertThat(new HostProcess(self.host(), self.pid(), self.startMillis() - 60_000, self.startStamp()).isProvablyGone())
                .as("this live process, its start instant seen through a wall clock a minute off").isFalse();
        long ticks = Long.parseLong(self.startStamp().substring(self.startStamp().indexOf(':') + 1));
        assertThat(new HostProcess(self.host(), self.pid(), self.startMillis(), bootId() + ":" + (ticks + 1)).isProvablyGone())
                .as("a process that started a tick later, whose pid this one reused").isTrue();
        assertThat(new HostProcess(self.host(), self.pid(), self.startMillis(), "another-boot:" + ticks).isProvablyGone())
                .as("a process of an earlier boot").isTrue();
    }

    @Test
    void theRuleComparesStampsWhenBothSidesHaveOneAndStartTimesOtherwise() {
        Optional<String> live = Optional.of("boot:42");
        assertThat(HostProcess.startMatches(1_000, "boot:42", () -> live, () -> Optional.of(90_000L))).isTrue();
        assertThat(HostProcess.startMatches(1_000, "boot:43", () -> live, () -> Optional.of(1_000L))).isFalse();
        assertThat(HostProcess.startMatches(1_000, "other-boot:42", () -> live, () -> Optional.of(1_000L))).isFalse();

        assertThat(HostProcess.startMatches(1_000, "", () -> live, () -> Optional.of(2_000L))).isTrue();
        assertThat(HostProcess.startMatches(1_000, "", () -> live, () -> Optional.of(2_001L))).isFalse();
        assertThat(HostProcess.startMatches(1_000, "boot:42", Optional::empty, () -> Optional.of(2_001L))).isFalse();
        assertThat(HostProcess.startMatches(-1, "", Optional::empty, () -> Optional.of(2_001L))).isTrue();
        assertThat(HostProcess.startMatches(1_000, "", Optional::empty, Optional::empty)).isTrue();
    }

    @Test
    void theStartTicksAreField22OfProcStatWhateverTheCommandNameHolds() {
        String stat = "4242 (a) b (c)) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 123456 789 18446744073709551615";
        assertThat(HostProcess.startTicks(stat)).contains(987_654L);
        assertThat(HostProcess.startTicks("4242 (a) S 1")).isEmpty();
        assertThat(HostProcess.startTicks("garbage")).isEmpty();
    }

    @Test
    void aProcessOfAnotherHostIsNeverProvablyGone() {
        assertThat(new HostProcess("some-other-machine.invalid", 1, 0, "").isProvablyGone()).isFalse();
        assertThat(new HostProcess("some-other-machine.invalid", 1, 0, "boot:1").isProvablyGone()).isFalse();
    }

    @Test
    void itsEncodingRoundTripsAndGarbageIsNotOne() {
        HostProcess self = HostProcess.current();
        assertThat(HostProcess.parse(self.encoded())).contains(self);
        HostProcess unstamped = new HostProcess("host", 12, 34, "");
        assertThat(unstamped.encoded()).as("the token of earlier versions").isEqualTo("host/12/34");
        assertThat(HostProcess.parse("host/12/34")).contains(unstamped);
        assertThat(HostProcess.parse("host/12/34/boot:5")).contains(new HostProcess("host", 12, 34, "boot:5"));
        assertThat(HostProcess.parse("")).isEmpty();
        assertThat(HostProcess.parse("host/12")).isEmpty();
        assertThat(HostProcess.parse("host/x/1")).isEmpty();
        assertThat(HostProcess.parse("/1/2")).isEmpty();
        assertThat(HostProcess.parse("a/1/2/")).isEmpty();
        assertThat(HostProcess.parse("a/1/2/3/4")).isEmpty();
        assertThatThrownBy(() -> new HostProcess("host", 12, 34, "boot/5")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'boot/5'").hasMessageContaining("hold no '/'");
    }

    private static String bootId() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).trim();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
