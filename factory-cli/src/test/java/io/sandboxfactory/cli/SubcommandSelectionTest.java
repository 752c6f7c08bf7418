package io.sandboxfactory.cli;

import io.sandboxfactory.cli.command.ExecCommand;
import io.sandboxfactory.cli.command.StatusCommand;
import io.sandboxfactory.cli.output.Console;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class SubcommandSelectionTest {

    private static final Console CONSOLE = new Console(System.out, System.err, Map.of());

    @Test
    void aCommandAfterGlobalOptionsGetsOnlyItsOwnModel() {
        assertThat(SubcommandSelection.needed(FactoryCommand.SUBCOMMANDS, "exec", "s1", "--", "true"))
                .containsExactly(ExecCommand.class);
        assertThat(SubcommandSelection.needed(FactoryCommand.SUBCOMMANDS, "--state-dir", "/tmp/x", "--json", "exec", "s1"))
                .containsExactly(ExecCommand.class);
        assertThat(SubcommandSelection.needed(FactoryCommand.SUBCOMMANDS, "--state-dir=/tmp/x", "--quiet", "status", "s1"))
                .containsExactly(StatusCommand.class);
    }

    @Test
    void aGlobalOptionsValueIsNeverTakenForTheCommand() {
        assertThat(SubcommandSelection.commandName("--provider", "exec", "list")).contains("list");
        assertThat(SubcommandSelection.commandName("--config", "run", "--verbose", "providers")).contains("providers");
    }

    @Test
    void everythingElseGetsEverySubcommand() {
        for (String[] args : new String[][] {{}, {"--help"}, {"--version"}, {"-h"}, {"help", "exec"}, {"completion", "bash"},
                {"exce", "s1"}, {"--bogus", "exec"}, {"--state-dir"}, {"--verbose=true", "exec"}, {"@args.txt"}}) {
            assertThat(SubcommandSelection.needed(FactoryCommand.SUBCOMMANDS, args)).as(String.join(" ", args))
                    .isEqualTo(FactoryCommand.SUBCOMMANDS);
        }
    }

    @Test
    void everySubcommandIsFoundByTheNameItsAnnotationGives() {
        for (Class<?> subcommand : FactoryCommand.SUBCOMMANDS) {
            String name = subcommand.getAnnotation(Command.class).name();
            assertThat(SubcommandSelection.needed(FactoryCommand.SUBCOMMANDS, name, "x")).as(name)
                    .isEqualTo(SubcommandSelection.NEED_ALL.contains(name) ? FactoryCommand.SUBCOMMANDS : java.util.List.of(subcommand));
        }
    }

    @Test
    void theSelectedCommandParsesInheritedGlobalOptionsOnEitherSide() {
        CommandLine.ParseResult before = FactoryCommand.commandLine(CONSOLE, "--state-dir", "/tmp/a", "exec", "s1", "--", "true")
                .parseArgs("--state-dir", "/tmp/a", "exec", "s1", "--", "true");
        assertThat(before.subcommand().commandSpec().name()).isEqualTo("exec");
        assertThat(before.matchedOptionValue("--state-dir", null).toString()).isEqualTo("/tmp/a");

        CommandLine after = FactoryCommand.commandLine(CONSOLE, "exec", "--state-dir", "/tmp/b", "s1", "--", "true");
        assertThat(after.getSubcommands()).containsOnlyKeys("exec");
        CommandLine.ParseResult parsed = after.parseArgs("exec", "--state-dir", "/tmp/b", "s1", "--", "true");
        assertThat(parsed.subcommand().matchedOptionValue("--state-dir", null).toString()).isEqualTo("/tmp/b");
    }

    @Test
    void rootHelpStillListsEveryCommand() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Console console = new Console(System.out, new PrintStream(err, true, StandardCharsets.UTF_8), Map.of());
        int exit = FactoryCommand.commandLine(console).execute();
        assertThat(exit).isZero();
        String usage = err.toString(StandardCharsets.UTF_8);
        for (Class<?> subcommand : FactoryCommand.SUBCOMMANDS) {
            assertThat(usage).contains("  " + subcommand.getAnnotation(Command.class).name() + " ");
        }
    }
}
