package io.sandboxfactory.cli;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Follows the README on a fresh clone, as a newcomer would: its set-up gives two commands, the main
 * job and the tests, and its walk-through takes one session from open to retire. The main job and
 * every line of the walk-through must work as written; the test command is only checked to be what
 * CI runs (running it here would recurse).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReadmeIT {

    private static final Path PROJECT = Path.of(System.getProperty("user.dir")).getParent();

    /** One fresh clone for both cases: its first ./factory call builds the jar, which takes a minute or more. */
    private Path temp;

    private Path clone;

    @BeforeAll
    void freshClone(@TempDir Path dir) throws Exception {
        temp = dir;
        clone = temp.resolve("clone");
        GitRepos.git(temp, "clone", "-q", PROJECT.toString(), clone.toString());
        // A user's fresh clone is of main; a developer's checkout may be on another branch.
        if (GitRepos.git(clone, "branch", "--list", "main").isBlank()) {
            GitRepos.git(clone, "branch", "main", "HEAD");
        }
    }

    @AfterAll
    void stopDaemons() {
        new Daemons(temp.resolve("state")).stop();
    }

    @Test
    void theReadmesMainJobWorksOnAFreshClone() throws Exception {
        List<String> lines = Files.readAllLines(PROJECT.resolve("README.md"));
        String mainJob = lines.stream().filter(l -> l.startsWith("./factory run ")).findFirst()
                .orElseThrow(() -> new AssertionError("README.md gives no './factory run …' main-job command"));
        String tests = lines.stream().filter(l -> l.startsWith("./mvnw ") && l.contains("verify")).findFirst()
                .orElseThrow(() -> new AssertionError("README.md gives no './mvnw … verify' test command"));
        assertThat(Files.readString(PROJECT.resolve(".ci/run"))).as(".ci/run must call the README's test command").contains(tests);

        CliProcess.Result result = sh(mainJob);

        assertThat(result.exitCode()).as(result.toString()).isZero();
        assertThat(result.stdout().lines().toList()).as(result.toString()).hasSize(3);
        assertThat(result.stderr()).contains("factory: ");
    }

    @Test
    void theReadmesWalkThroughTakesASessionFromOpenToRetire() throws Exception {
        List<String> walkThrough = walkThrough(Files.readAllLines(PROJECT.resolve("README.md")));
        assertThat(walkThrough).as("the walk-through's commands").anyMatch(l -> l.startsWith("./factory open "))
                .anyMatch(l -> l.startsWith("./factory exec ")).anyMatch(l -> l.startsWith("./factory diff "))
                .anyMatch(l -> l.startsWith("./factory export ")).anyMatch(l -> l.startsWith("./factory retire "));

        for (String line : walkThrough) {
            CliProcess.Result result = sh(line);
            assertThat(result.exitCode()).as(line + "\n" + result).isZero();
            if (line.startsWith("./factory diff ")) {
                assertThat(result.stdout()).as(line).contains("hello.txt");
            }
            if (line.startsWith("git log ")) {
                assertThat(result.stdout()).as("the exported branch holds the session's commit").contains("Say hello");
            }
        }
        CliProcess.Result list = sh("./factory list");
        assertThat(list.stdout()).as("the retired session is gone").doesNotContain("demo");
    }

    /** The lines of the first sh block under the README's walk-through heading. */
    private static List<String> walkThrough(List<String> readme) {
        int heading = readme.indexOf("## A session, start to finish");
        assertThat(heading).as("README.md has a '## A session, start to finish' walk-through").isNotNegative();
        int start = readme.subList(heading, readme.size()).indexOf("```sh") + heading + 1;
        List<String> commands = new ArrayList<>();
        for (String line : readme.subList(start, readme.size())) {
            if (line.startsWith("```")) {
                break;
            }
            commands.add(line);
        }
        return commands;
    }

    /**
     * A line of the README in the clone, as a newcomer's shell runs it. The newcomer has a git identity (the walk-through
     * commits in the session, which takes the host's); the test gives one through git's own variables, so that it holds
     * on a CI machine without a ~/.gitconfig.
     */
    private CliProcess.Result sh(String line) {
        return CliProcess.exec(List.of("bash", "-c", line), clone, Map.of("FACTORY_STATE_DIR", temp.resolve("state").toString(),
                "GIT_CONFIG_COUNT", "2", "GIT_CONFIG_KEY_0", "user.name", "GIT_CONFIG_VALUE_0", "README Reader",
                "GIT_CONFIG_KEY_1", "user.email", "GIT_CONFIG_VALUE_1", "reader@example.invalid"));
    }
}
