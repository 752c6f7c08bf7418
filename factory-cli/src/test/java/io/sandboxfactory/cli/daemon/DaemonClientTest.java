package io.sandboxfactory.cli.daemon;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DaemonClientTest {

    @Test
    void theDaemonTakesOnlyTheClassArchiveOptionsOfTheClientsJvm() {
        List<String> client = List.of("-XX:SharedArchiveFile=/opt/factory/factory.jsa", "-Xshare:auto", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-Xlog:disable", "-Dfoo=bar", "-Xmx256m");

        assertThat(DaemonClient.sharedArchiveOptions(client))
                .containsExactly("-XX:SharedArchiveFile=/opt/factory/factory.jsa", "-Xshare:auto");
    }

    @Test
    void aClientWithoutAnArchiveGivesTheDaemonNone() {
        assertThat(DaemonClient.sharedArchiveOptions(List.of("-XX:+UseSerialGC", "-Xlog:disable"))).isEmpty();
    }
}
