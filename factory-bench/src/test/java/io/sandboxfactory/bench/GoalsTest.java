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
}
