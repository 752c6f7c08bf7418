package io.sandboxfactory.bench;

import io.sandboxfactory.bench.report.BenchReport;
import io.sandboxfactory.bench.report.Group;
import io.sandboxfactory.bench.stats.Samples;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class GoalsTest {

    @Test
    void theClientsGoalsAreARatioToDockerExecAndMillisecondsForTheVersion() {
        BenchReport report = new BenchReport().add(new Group(ClientGroups.TITLE, ClientGroups.DOCKER_EXEC, List.of(
                Samples.of(ClientGroups.DOCKER_EXEC, 50, 60, 70),
                Samples.of(ClientGroups.EXEC, 60, 66, 90),
                Samples.of(ClientGroups.VERSION, 40, 45, 250))));

        new Goals(report).check();

        assertThat(report.notes()).contains(
                "goal factory exec S -- true (client, daemon) / docker exec C true ≤ 1.00× in 'factory client': 1.10× — missed",
                "goal factory --version ≤ 200 ms in 'factory client': 45 ms — met");
    }

    @Test
    void theLocalExecGoalsAreCheckedInBothExecTrueGroups() {
        BenchReport report = new BenchReport()
                .add(group(Bench.EXEC_TRUE, 1.05, 1.2))
                .add(group(Bench.EXEC_TRUE_BACK_TO_BACK, 1.2, 1.3));

        new Goals(report).check();

        assertThat(report.notes()).containsExactly(
                "goal local provider executeCommand / raw ProcessBuilder sh -c ≤ 1.10× in 'exec true': 1.05× — met",
                "goal local provider executeCommand, namespaces / raw ProcessBuilder sh -c ≤ 1.25× in 'exec true': 1.20× — met",
                "goal local provider executeCommand / raw ProcessBuilder sh -c ≤ 1.10× in 'exec true, back to back': 1.20× — missed",
                "goal local provider executeCommand, namespaces / raw ProcessBuilder sh -c ≤ 1.25× in 'exec true, back to back': 1.30× — missed");
    }

    private static Group group(String title, double local, double isolated) {
        return new Group(title, ExecGroups.RAW, List.of(Samples.of(ExecGroups.RAW, 1.0), Samples.of(ExecGroups.LOCAL, local),
                Samples.of(ExecGroups.LOCAL_ISOLATED, isolated)));
    }
}
