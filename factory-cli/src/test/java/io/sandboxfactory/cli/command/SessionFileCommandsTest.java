package io.sandboxfactory.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sandboxfactory.cli.FactoryCommand;
import io.sandboxfactory.cli.GitRepos;
import io.sandboxfactory.cli.output.Console;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code factory cp}, {@code cat} and {@code ls} in-process through picocli (the commands are not in
 * the shaded jar until they are registered in {@link FactoryCommand}), with a console bound to
 * byte arrays, against real sessions of the local provider opened with {@code factory open} from a
 * real bare repository.
 */
class SessionFileCommandsTest {

    record Run(int exitCode, byte[] stdout, String stderr) {
        String out() {
            return new String(stdout, StandardCharsets.UTF_8);
        }
    }

    @TempDir
    Path tmp;
    Path state;
    Path checkout;

    @BeforeEach
    void openSession() throws Exception {
        state = tmp.resolve("state");
        Path bare = GitRepos.bareWithMain(tmp, "site");
        Run open = factory("open", "s1", "--repo", bare.toString(), "--branch", "work");
        assertThat(open.exitCode()).as(open.stderr()).isZero();
        checkout = state.resolve("sessions/s1/site");
        assertThat(checkout.resolve("README.md")).exists();
    }

    private Run factory(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Console console = new Console(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                Map.of());
        CommandLine commandLine = FactoryCommand.commandLine(console);
        for (Object command : List.of(new CpCommand(), new CatCommand(), new LsCommand())) {
            String name = command.getClass().getAnnotation(CommandLine.Command.class).name();
            if (!commandLine.getSubcommands().containsKey(name)) {
                commandLine.addSubcommand(command);
            }
        }
        List<String> all = new ArrayList<>(List.of("--state-dir", state.toString(), "--provider", "local"));
        all.addAll(List.of(args));
        int code = commandLine.execute(all.toArray(String[]::new));
        return new Run(code, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
    }

    private static byte[] binary() {
        byte[] bytes = new byte[70_000];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 31 + i / 256);
        }
        return bytes;
    }

    @Test
    void copiesDirectoryTreesInAndOut() throws IOException {
        Path tree = Files.createDirectories(tmp.resolve("fixtures/deep/er"));
        Files.write(tree.resolve("data.bin"), binary());
        Files.writeString(tmp.resolve("fixtures/naïve name.txt"), "unicode\n");

        Run in = factory("cp", tmp.resolve("fixtures").toString(), "s1:test");
        assertThat(in.exitCode()).as(in.stderr()).isZero();
        assertThat(in.stderr()).contains("factory: copied 2 files, 3 directories, 0 links (68.4 KiB) to s1:test");
        assertThat(Files.readAllBytes(checkout.resolve("test/deep/er/data.bin"))).isEqualTo(binary());
        assertThat(Files.readString(checkout.resolve("test/naïve name.txt"))).isEqualTo("unicode\n");

        Run into = factory("cp", tmp.resolve("fixtures").toString(), "s1:test");
        assertThat(into.exitCode()).isZero();
        assertThat(checkout.resolve("test/fixtures/deep/er/data.bin")).exists();

        Path back = tmp.resolve("back");
        Run out = factory("cp", "s1:test", back.toString());
        assertThat(out.exitCode()).as(out.stderr()).isZero();
        assertThat(Files.readAllBytes(back.resolve("deep/er/data.bin"))).isEqualTo(binary());
        assertThat(Files.readString(back.resolve("naïve name.txt"))).isEqualTo("unicode\n");

        Run file = factory("cp", "s1:README.md", tmp.toString());
        assertThat(file.exitCode()).isZero();
        assertThat(Files.readString(tmp.resolve("README.md"))).isEqualTo("hello from site\n");

        Run json = factory("--json", "cp", tmp.resolve("fixtures/deep/er/data.bin").toString(), "s1:copy.bin");
        assertThat(json.exitCode()).isZero();
        JsonNode doc = new ObjectMapper().readTree(json.stdout());
        assertThat(doc.get("files").asLong()).isEqualTo(1);
        assertThat(doc.get("bytes").asLong()).isEqualTo(70_000);
        assertThat(Files.readAllBytes(checkout.resolve("copy.bin"))).isEqualTo(binary());
    }

    @Test
    void catPrintsTheBytesOfAFile() throws IOException {
        Files.write(checkout.resolve("data.bin"), binary());
        Run cat = factory("cat", "s1:data.bin");
        assertThat(cat.exitCode()).as(cat.stderr()).isZero();
        assertThat(cat.stdout()).isEqualTo(binary());
        assertThat(factory("cat", "s1:README.md").out()).isEqualTo("hello from site\n");
    }

    @Test
    void lsListsTheCheckoutADirectoryOrAFile() throws IOException {
        Files.createDirectories(checkout.resolve("src"));
        Files.writeString(checkout.resolve("src/new\nline.txt"), "x");
        Run root = factory("ls", "s1");
        assertThat(root.exitCode()).as(root.stderr()).isZero();
        assertThat(root.out().lines()).contains(".git/", "README.md", "src/");
        assertThat(factory("ls", "s1:src").out()).isEqualTo("new\\nline.txt\n");
        assertThat(factory("ls", "-l", "s1:README.md").out()).matches("-rw-r--r-- +16 \\d{4}-.* README.md\n");
        JsonNode doc = new ObjectMapper().readTree(factory("--json", "ls", "s1:src").stdout());
        assertThat(doc.get("entries").get(0).get("name").asText()).isEqualTo("new\nline.txt");
        assertThat(doc.get("entries").get(0).get("type").asText()).isEqualTo("file");
    }

    @Test
    void pathsOutsideTheCheckoutExitTwoAndTouchNothing() throws IOException {
        Path outside = Files.writeString(tmp.resolve("secret.txt"), "secret");
        Files.createSymbolicLink(checkout.resolve("leak"), outside);
        Path local = Files.writeString(tmp.resolve("local.txt"), "pwned");

        for (String[] args : List.of(
                new String[] {"cat", "s1:../../../secret.txt"},
                new String[] {"cat", "s1:" + outside},
                new String[] {"cat", "s1:leak"},
                new String[] {"ls", "s1:.."},
                new String[] {"cp", "s1:leak", tmp.resolve("copied").toString()},
                new String[] {"cp", local.toString(), "s1:leak"},
                new String[] {"cp", local.toString(), "s1:../escaped.txt"})) {
            Run run = factory(args);
            assertThat(run.exitCode()).as(String.join(" ", args) + ": " + run.stderr()).isEqualTo(2);
            assertThat(run.stderr()).contains("is outside the root");
            assertThat(run.stdout()).isEmpty();
        }
        assertThat(factory("cat", "s1:../../../secret.txt").stderr()).as("reads as a sentence")
                .contains("Path '../../../secret.txt' is outside the root of the checkout of session 's1': ");
        Run json = factory("--json", "cat", "s1:leak");
        JsonNode error = new ObjectMapper().readTree(json.stdout());
        assertThat(error.get("code").asText()).isEqualTo("PATH_OUTSIDE_ROOT");
        assertThat(error.get("kind").asText()).isEqualTo("BAD_INPUT");
        assertThat(error.get("exitCode").asInt()).isEqualTo(2);
        assertThat(json.stderr()).contains("factory: " + error.get("error").asText());
        Run lexical = factory("--json", "cat", "nobody:../x");
        assertThat(lexical.exitCode()).as("refused before the session is even looked up").isEqualTo(2);
        assertThat(new ObjectMapper().readTree(lexical.stdout()).get("code").asText()).isEqualTo("PATH_OUTSIDE_ROOT");
        assertThat(Files.readString(outside)).isEqualTo("secret");
        assertThat(tmp.resolve("copied")).doesNotExist();
        assertThat(state.resolve("sessions/s1/escaped.txt")).doesNotExist();
    }

    @Test
    void badArgumentsAndMissingPathsExitTwo() {
        assertThat(factory("cp", "a", "b").stderr()).contains("Exactly one of SRC 'a' and DST 'b' must be SESSION:PATH");
        assertThat(factory("cp", "s1:a", "s1:b").exitCode()).isEqualTo(2);
        assertThat(factory("cat", "README.md").exitCode()).isEqualTo(2);
        Run unknown = factory("cat", "nobody:README.md");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.stderr()).contains("Session 'nobody' is not known");
        Run missing = factory("cat", "s1:missing.txt");
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.stderr()).contains("'missing.txt'").contains("does not exist");
        Run directory = factory("cat", "s1:.git");
        assertThat(directory.exitCode()).isEqualTo(2);
        assertThat(directory.stderr()).contains("is a directory");
        assertThat(factory("cp", tmp.resolve("nope").toString(), "s1:x").exitCode()).isEqualTo(2);
    }
}
