package io.sandboxfactory.core.internal.setup;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class SetupCommandsTest {

    @Test
    void blankCommandsAreDroppedAndTheRestJoinedWithNewlines() {
        SetupCommands commands = SetupCommands.of(Arrays.asList("npm ci", "  ", null, "", "make build"));
        assertThat(commands.commands()).containsExactly("npm ci", "make build");
        assertThat(commands.text()).isEqualTo("npm ci\nmake build");
        assertThat(SetupCommands.of(List.of(" ", "")).isEmpty()).isTrue();
    }

    @Test
    void theMarkerIsSha256OfTheJoinedTextAsSha256sumComputesIt() throws Exception {
        SetupCommands commands = SetupCommands.of(List.of("npm ci", "", "make build"));
        Process p = new ProcessBuilder("sha256sum").start();
        p.getOutputStream().write("npm ci\nmake build".getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String expected = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).split(" ")[0];
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(commands.markerContent()).isEqualTo("sha256:" + expected);
        assertThat(SetupCommands.of(List.of("npm ci", "make build ")).markerContent()).isNotEqualTo(commands.markerContent());
    }

    @Test
    void theSetupScriptStopsAtTheFirstFailureAndTheTeardownScriptRunsEverything() throws Exception {
        SetupCommands commands = SetupCommands.of(List.of("echo one", "false", "echo three"));
        assertThat(sh(commands.scriptIn("/"))).isEqualTo("one\nexit=1");
        assertThat(sh(commands.scriptRunningAllIn("/"))).isEqualTo("one\nthree\nexit=1");
    }

    private static String sh(String script) throws Exception {
        Process p = new ProcessBuilder("/bin/sh", "-c", script).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        return out + "exit=" + p.exitValue();
    }
}
