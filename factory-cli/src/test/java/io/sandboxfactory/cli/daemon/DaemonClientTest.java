package io.sandboxfactory.cli.daemon;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class DaemonClientTest {

    @Test
    void theDaemonTakesOnlyTheClassArchiveOptionsOfTheClientsJvm() {
        List<String> client = List.of("-XX:SharedArchiveFile=/opt/factory/factory.jsa", "-Xshare:auto", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-Xlog:disable", "-Dfoo=bar", "-Xmx256m");

        assertThat(DaemonClient.inheritedOptions(client))
                .containsExactly("-XX:SharedArchiveFile=/opt/factory/factory.jsa", "-Xshare:auto");
    }

    @Test
    void theDaemonTakesTheAotCacheAndTheAccessOptionsOfAJdk25Client() {
        List<String> client = List.of("-XX:AOTCache=/opt/factory/factory-client.aot", "-XX:AOTMode=auto", "-XX:+UseSerialGC",
                "-Xlog:aot*=off:stderr", "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow", "-Xmx256m");

        assertThat(DaemonClient.inheritedOptions(client)).containsExactly("-XX:AOTCache=/opt/factory/factory-client.aot",
                "-XX:AOTMode=auto", "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow");
    }

    @Test
    void aClientWithoutAnArchiveGivesTheDaemonNone() {
        assertThat(DaemonClient.inheritedOptions(List.of("-XX:+UseSerialGC", "-Xlog:disable"))).isEmpty();
    }

    @Test
    void theDaemonsClassPathIsAbsoluteSinceItStartsInItsSocketsDirectory() {
        String here = Path.of("").toAbsolutePath().toString();

        assertThat(DaemonClient.absolute("target/factory-client.jar:/opt/factory.jar"))
                .isEqualTo(here + "/target/factory-client.jar:/opt/factory.jar");
    }

    @Test
    void theStartNoticeGivesThePidAndTheIdleTimeoutInMinutesOrAsWritten() {
        assertThat(DaemonClient.startNotice(42, FactoryDaemon.idleTimeout(Map.of())))
                .isEqualTo("factory: started a factory daemon (pid 42); it stops after 10 min idle; factory daemon stop");
        assertThat(DaemonClient.startNotice(42, FactoryDaemon.idleTimeout(Map.of("FACTORY_DAEMON_IDLE", "90s"))))
                .isEqualTo("factory: started a factory daemon (pid 42); it stops after 90s idle; factory daemon stop");
        assertThat(DaemonClient.startNotice(42, Duration.ofHours(1))).contains("it stops after 60 min idle;");
        assertThat(FactoryDaemon.idleTimeout(Map.of("FACTORY_DAEMON_IDLE", "soon"))).as("no duration: the default").isEqualTo(Duration.ofMinutes(10));
    }
}
