package io.sandboxfactory.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Follows the README on a fresh clone: its set-up gives two commands, the main job and the tests.
 * The main job must work as written; the test command is only checked to be what CI runs (running
 * it here would recurse).
 */
class ReadmeIT {

    @TempDir
    Path temp;

    @Test
    void theReadmesMainJobWorksOnAFreshClone() throws Exception {
        Path project = Path.of(System.getProperty("user.dir")).getParent();
        List<String> lines = Files.readAllLines(project.resolve("README.md"));
        String mainJob = lines.stream().filter(l -> l.startsWith("./factory run ")).findFirst()
                .orElseThrow(() -> new AssertionError("README.md gives no './factory run …' main-job command"));
        String tests = lines.stream().filter(l -> l.startsWith("./mvnw ") && l.contains("verify")).findFirst()
                .orElseThrow(() -> new AssertionError("README.md gives no './mvnw … verify' test command"));
        assertThat(Files.readString(project.resolve(".ci/run"))).as(".ci/run must call the README's test command").contains(tests);

        Path clone = temp.resolve("clone");
        GitRepos.git(temp, "clone", "-q", project.toString(), clone.toString());
        // A user's fresh clone is of main; a developer's checkout may be on another branch.
        if (GitRepos.git(clone, "branch", "--list", "main").isBlank()) {
            GitRepos.git(clone, "branch", "main", "HEAD");
        }
        CliProcess.Result result = CliProcess.exec(List.of("bash", "-c", mainJob), clone,
                Map.of("FACTORY_STATE_DIR", temp.resolve("state").toString()));

        assertThat(result.exitCode()).as(result.toString()).isZero();
        assertThat(result.stdout().lines().toList()).as(result.toString()).hasSize(3);
        assertThat(result.stderr()).contains("factory: ");
    }
}
