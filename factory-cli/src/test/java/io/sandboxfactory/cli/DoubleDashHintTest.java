package io.sandboxfactory.cli;

import io.sandboxfactory.cli.output.Console;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class DoubleDashHintTest {

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        Console console = new Console(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), Map.of());
        return FactoryCommand.commandLine(console, args).execute(args);
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void anExecWhoseCommandHasOptionsWithoutDoubleDashGetsTheLineToType() {
        assertThat(run("exec", "j1", "git", "status", "-s")).isEqualTo(ExitCodes.BAD_INPUT);

        assertThat(stderr()).contains("Unknown option: '-s'")
                .contains("factory: put '--' before the command so that its options are its own: factory exec j1 -- git status -s")
                .contains("see 'factory exec --help'")
                .doesNotContain("Examples:");
        assertThat(stderr().lines()).hasSize(3);
    }

    @Test
    void optionsOfTheFactoryAndTheirValuesStayBeforeTheDoubleDash() {
        run("--json", "exec", "j1", "--timeout", "5s", "ls", "-la");

        assertThat(stderr()).contains("factory --json exec j1 --timeout 5s -- ls -la");
    }

    @Test
    void aRunGetsTheDoubleDashBeforeItsFirstPositional() {
        run("run", "--repo", ".", "--branch", "b", "grep", "-r", "x");

        assertThat(stderr()).contains("factory run --repo . --branch b -- grep -r x");
    }

    @Test
    void otherBadInputGetsNoSuchHint() {
        assertThat(run("status", "s1", "--nope")).isEqualTo(ExitCodes.BAD_INPUT);

        assertThat(stderr()).contains("Unknown option: '--nope'").contains("see 'factory status --help'").doesNotContain("put '--'");
    }
}
