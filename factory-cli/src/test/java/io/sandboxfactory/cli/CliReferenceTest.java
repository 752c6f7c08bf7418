package io.sandboxfactory.cli;

import io.sandboxfactory.cli.output.Console;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/reference/cli.md is the usage help of every command, generated from the picocli model, so
 * it cannot drift from the code: this test fails when the file differs from what the model gives
 * now, and rewrites it with {@code -Dcli.reference.write=true}:
 * {@code ./mvnw -B -o -pl factory-cli test -Dtest=CliReferenceTest -Dcli.reference.write=true}.
 */
class CliReferenceTest {

    private static final Path FILE = Path.of("..", "docs", "reference", "cli.md");

    @Test
    void theCliReferenceIsTheUsageHelpOfEveryCommand() throws Exception {
        String expected = reference();
        if (Boolean.getBoolean("cli.reference.write")) {
            Files.createDirectories(FILE.getParent());
            Files.writeString(FILE, expected, StandardCharsets.UTF_8);
        }
        assertThat(Files.exists(FILE)).as(FILE + " is missing; write it with -Dcli.reference.write=true").isTrue();
        assertThat(Files.readString(FILE, StandardCharsets.UTF_8))
                .as("docs/reference/cli.md is stale: regenerate it with ./mvnw -B -o -pl factory-cli test -Dtest=CliReferenceTest"
                        + " -Dcli.reference.write=true and commit it with the change")
                .isEqualTo(expected);
    }

    @Test
    void theReferenceNamesEveryCommandWithItsOptions() {
        String reference = reference();
        for (Class<?> subcommand : FactoryCommand.SUBCOMMANDS) {
            String name = subcommand.getAnnotation(CommandLine.Command.class).name();
            assertThat(reference).contains("\n## factory " + name + "\n");
        }
        assertThat(reference).contains("## factory template build\n").contains("--state-dir=DIR").contains("--keep");
    }

    /** Every command, depth first in the order the help lists them, as a heading and its usage in a code block. */
    static String reference() {
        ByteArrayOutputStream ignored = new ByteArrayOutputStream();
        PrintStream sink = new PrintStream(ignored, true, StandardCharsets.UTF_8);
        CommandLine root = FactoryCommand.commandLine(new Console(sink, sink, Map.of()));
        StringBuilder out = new StringBuilder("""
                # `factory` command reference

                <!-- Generated from the picocli model by CliReferenceTest (factory-cli); do not edit by hand.
                     Regenerate: ./mvnw -B -o -pl factory-cli test -Dtest=CliReferenceTest -Dcli.reference.write=true -->

                Every command's `--help`, as the code defines it. What the commands do, with examples:
                [the CLI guide](../guide/cli.md).
                """);
        append(root, out);
        return out.toString();
    }

    private static void append(CommandLine command, StringBuilder out) {
        out.append("\n## ").append(command.getCommandSpec().qualifiedName()).append("\n\n```\n")
                .append(command.getUsageMessage(CommandLine.Help.Ansi.OFF).stripTrailing()).append("\n```\n");
        command.getSubcommands().values().stream().distinct().forEach(sub -> append(sub, out));
    }
}
