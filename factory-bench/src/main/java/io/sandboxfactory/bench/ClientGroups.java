package io.sandboxfactory.bench;

import io.sandboxfactory.bench.report.Group;
import io.sandboxfactory.bench.stats.Contender;
import io.sandboxfactory.bench.stats.Interleaved;

import java.util.List;
import java.util.Map;

/**
 * The {@code factory} command's own cost, against {@code docker exec C true}: {@code factory exec S
 * -- true} through the factory daemon (the minimal client's path) and {@code factory --version}
 * (the client alone), each a whole process as a user's shell starts it.
 */
public final class ClientGroups {

    public static final String TITLE = "factory client";
    public static final String DOCKER_EXEC = "docker exec C true";
    public static final String EXEC = "factory exec S -- true (client, daemon)";
    public static final String VERSION = "factory --version";

    private final Subjects subjects;

    public ClientGroups(Subjects subjects) {
        this.subjects = subjects;
    }

    public Group measure(Subjects.CliSession cli, String containerId, Interleaved rounds) throws Exception {
        BenchWorkspace workspace = subjects.workspace();
        return new Group(TITLE, DOCKER_EXEC, rounds.run(List.of(
                Contender.of(DOCKER_EXEC, () -> workspace.processes().quiet(workspace.root(), Map.of(),
                        List.of("docker", "exec", containerId, "true"))),
                Contender.of(EXEC, () -> cli.command().run(cli.state(), "exec", cli.session(), "--", "true")),
                Contender.of(VERSION, () -> cli.command().version(cli.state())))));
    }
}
