package io.sandboxfactory.api.support;

import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class HostProcessTest {

    @Test
    void thisProcessIsAliveAndAnExitedOneOfThisHostIsProvablyGone() throws Exception {
        HostProcess self = HostProcess.current();
        assertThat(self.isProvablyGone()).isFalse();

        Process exited = new ProcessBuilder("true").start();
        exited.waitFor();
        HostProcess gone = new HostProcess(self.host(), exited.pid(), exited.info().startInstant().map(Instant::toEpochMilli).orElse(-1L));
        assertThat(gone.isProvablyGone()).isTrue();
    }

    @Test
    void aLiveProcessWithAnotherStartTimeIsAStrangerThatReusedThePid() {
        HostProcess self = HostProcess.current();
        assertThat(new HostProcess(self.host(), self.pid(), self.startMillis() - 60_000).isProvablyGone()).isTrue();
    }

    @Test
    void aProcessOfAnotherHostIsNeverProvablyGone() {
        assertThat(new HostProcess("some-other-machine.invalid", 1, 0).isProvablyGone()).isFalse();
    }

    @Test
    void itsEncodingRoundTripsAndGarbageIsNotOne() {
        HostProcess self = HostProcess.current();
        assertThat(HostProcess.parse(self.encoded())).contains(self);
        assertThat(HostProcess.parse("")).isEmpty();
        assertThat(HostProcess.parse("host/12")).isEmpty();
        assertThat(HostProcess.parse("host/x/1")).isEmpty();
        assertThat(HostProcess.parse("/1/2")).isEmpty();
        assertThat(HostProcess.parse("a/1/2/3")).isEmpty();
    }
}
