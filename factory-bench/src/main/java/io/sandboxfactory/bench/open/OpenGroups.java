package io.sandboxfactory.bench.open;

import io.sandboxfactory.bench.BenchWorkspace;
import io.sandboxfactory.bench.Subjects;
import io.sandboxfactory.bench.local.LocalFactories;
import io.sandboxfactory.bench.report.Group;
import io.sandboxfactory.bench.stats.Contender;
import io.sandboxfactory.bench.stats.Interleaved;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.retire.RetireMode;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Getting a checkout of the fixture repository on a new branch: a plain {@code git clone} +
 * {@code git checkout -b} (the baseline), a cold open and a warm reopen through the API, and
 * {@code factory run --repo <bare> --branch b -- true} cold (a state directory of its own: no store,
 * no daemon) and warm (the same state directory again).
 */
public final class OpenGroups {

    public static final String GIT_CLONE = "git clone + checkout -b";

    private final Subjects subjects;
    private final LocalFactories factories;
    private final AtomicInteger counter = new AtomicInteger();

    public OpenGroups(Subjects subjects, LocalFactories factories) {
        this.subjects = subjects;
        this.factories = factories;
    }

    public Group measure(Interleaved rounds) throws Exception {
        BenchWorkspace workspace = subjects.workspace();
        SandboxFactory factory = subjects.localFactory();
        String bare = workspace.bareRepository().toString();
        List<Contender> out = new ArrayList<>();
        Path clones = workspace.directory("clones");
        out.add(Contender.of(GIT_CLONE, () -> workspace.processes().quiet(clones, Map.of(), List.of("sh", "-c",
                "git clone -q \"$0\" c && git -C c checkout -q -b b", bare)), () -> BenchWorkspace.delete(clones.resolve("c"))));
        String[] cold = new String[1];
        out.add(Contender.of("cold open (API, local)", () -> {
            cold[0] = "cold-" + counter.incrementAndGet();
            factory.openSession(factories.spec(cold[0]));
        }, () -> factory.retire(cold[0], RetireMode.DESTROY)));
        out.add(Contender.of("warm open (API, local)", () -> factory.openSession(factories.spec(subjects.localSession().sessionId()))));
        subjects.cli().ifPresent(cli -> {
            Path[] state = new Path[1];
            out.add(Contender.of("factory run -- true, cold (CLI)", () -> {
                state[0] = workspace.directory("run-cold-" + counter.incrementAndGet());
                cli.command().run(state[0], "run", "--repo", bare, "--branch", "b", "--", "true");
            }, () -> {
                cli.command().stopDaemons(state[0]);
                BenchWorkspace.delete(state[0]);
            }));
            // What any factory command pays before it does anything: the JVM and the CLI's start.
            out.add(Contender.of("factory --version (JVM start floor)", () -> cli.command().run(cli.state(), "--version")));
            out.add(Contender.of("factory run -- true, warm (CLI)", () -> cli.command().run(cli.state(), "run", "--repo", bare, "--branch",
                    "b", "--", "true")));
        });
        return new Group("open a checkout on a new branch", GIT_CLONE, rounds.run(out));
    }
}
