package io.sandboxfactory.cli.command;

import io.sandboxfactory.cli.ExitCodes;
import io.sandboxfactory.cli.FactoryCommand;
import io.sandboxfactory.cli.GitRepos;
import io.sandboxfactory.cli.testing.ShellSandboxProvider;
import io.sandboxfactory.cli.output.Console;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code factory shell} in-process through picocli on the test provider {@code test-shell} ({@link
 * ShellSandboxProvider}), whose sandboxes run real commands but offer no {@code AttachableSandbox}.
 */
class ShellCommandTest {

    @TempDir
    Path tmp;

    @Test
    void aProviderWithoutAnAttachIsNamedInOneSentence() throws Exception {
        Run open = factory("open", "s1", "--repo", GitRepos.bareWithMain(tmp, "site").toString(), "--branch", "work");
        assertThat(open.exitCode()).as(open.stderr()).isZero();

        Run shell = factory("shell", "s1");

        assertThat(shell.exitCode()).as(shell.stderr()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(shell.stderr()).contains("The test-shell provider has no interactive shell; use 'factory exec s1 -- CMD' there.");
    }

    private record Run(int exitCode, String stdout, String stderr) {
    }

    private Run factory(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Console console = new Console(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                Map.of());
        List<String> all = new ArrayList<>(List.of("--state-dir", tmp.resolve("state").toString(), "--provider", "test-shell"));
        all.addAll(List.of(args));
        int code = FactoryCommand.commandLine(console).execute(all.toArray(String[]::new));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
