package io.sandboxfactory.cli;

import io.sandboxfactory.cli.daemon.DaemonClient;
import io.sandboxfactory.core.FactoryConfigurationException;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StateDirectoriesTest {

    private static final Path CWD = Path.of("/work/here");
    private static final Path HOME = Path.of("/home/someone");

    @Test
    void theOptionBeatsTheEnvironmentWhichBeatsTheDefaultAndTildeIsHome() {
        assertThat(StateDirectories.named(Path.of("rel"), Map.of("FACTORY_STATE_DIR", "/env"), CWD, HOME)).isEqualTo(CWD.resolve("rel"));
        assertThat(StateDirectories.named(null, Map.of("FACTORY_STATE_DIR", "~/st"), CWD, HOME)).isEqualTo(HOME.resolve("st"));
        assertThat(StateDirectories.named(null, Map.of("FACTORY_STATE_DIR", "st/../x"), CWD, HOME)).isEqualTo(CWD.resolve("x"));
        assertThat(StateDirectories.named(null, Map.of(), CWD, HOME)).isEqualTo(HOME.resolve(".sandbox-factory"));
    }

    @Test
    void anInvalidEnvironmentValueIsTheFactorysErrorAndNeverBreaksTheDaemonClient() {
        Map<String, String> env = Map.of("FACTORY_STATE_DIR", "bad\0path");
        assertThatThrownBy(() -> StateDirectories.named(null, env, CWD, HOME)).isInstanceOf(FactoryConfigurationException.class)
                .hasMessageContaining("is not a valid path");

        PrintStream sink = new PrintStream(new ByteArrayOutputStream());
        DaemonClient client = DaemonClient.of(new String[] {"exec", "s1", "--", "true"}, env, CWD, HOME);
        assertThat(client.runThroughDaemon(new String[] {"exec", "s1", "--", "true"}, sink, sink)).isEmpty();
    }
}
