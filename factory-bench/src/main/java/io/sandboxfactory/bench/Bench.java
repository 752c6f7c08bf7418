package io.sandboxfactory.bench;

import io.sandboxfactory.bench.docker.DockerSandboxes;
import io.sandboxfactory.bench.egress.EgressOverhead;
import io.sandboxfactory.bench.docker.DockerStarts;
import io.sandboxfactory.bench.docker.TestcontainersPeer;
import io.sandboxfactory.bench.git.GatewayGroups;
import io.sandboxfactory.bench.local.LocalFactories;
import io.sandboxfactory.bench.local.RawProcess;
import io.sandboxfactory.bench.open.ConcurrentOpens;
import io.sandboxfactory.bench.open.OpenGroups;
import io.sandboxfactory.bench.report.BenchReport;
import io.sandboxfactory.bench.report.JsonReport;
import io.sandboxfactory.bench.report.MarkdownSection;
import io.sandboxfactory.bench.report.SvgChart;
import io.sandboxfactory.bench.report.TableWriter;
import io.sandboxfactory.bench.scaling.DaemonMemory;
import io.sandboxfactory.bench.scaling.LeaseScaling;
import io.sandboxfactory.bench.scaling.SessionScaling;
import io.sandboxfactory.bench.stats.Interleaved;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionHandle;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@code factory bench}: in one process and one run, every exec, file and open path of the factory
 * side by side with the raw process, {@code docker exec}/{@code docker cp}, Testcontainers and a
 * plain {@code git clone}, in interleaved rounds; then the scaling curves. Prints a Markdown table
 * and writes {@code bench.json} and {@code bench.svg}. Parts whose tools are missing (no engine
 * answering, no docker CLI, no factory command) are skipped with a line saying so.
 */
public final class Bench {

    private static final int CROWD = 200;
    static final String EXEC_TRUE = "exec true";
    static final String EXEC_TRUE_BACK_TO_BACK = "exec true, back to back";

    private final BenchOptions options;
    private final BenchReport report = new BenchReport();
    private final Deque<AutoCloseable> closers = new ArrayDeque<>();

    private Bench(BenchOptions options) {
        this.options = options;
    }

    public static void main(String[] args) throws Exception {
        Logger.getLogger("").setLevel(Level.WARNING);
        Logger.getLogger("").getHandlers()[0].setLevel(Level.WARNING);
        if (Arrays.asList(args).contains("--help")) {
            System.out.println(BenchOptions.USAGE);
            return;
        }
        BenchOptions options;
        try {
            options = BenchOptions.parse(args, Path.of(System.getProperty("bench.factory", "./factory")),
                    Path.of(System.getProperty("bench.markdown", "docs/performance.md")));
            // Before the minutes of measuring, not after: a file without its markers is refused now.
            options.markdown().ifPresent(file -> new MarkdownSection(file).check());
        } catch (IllegalArgumentException e) {
            System.err.println("factory bench: " + e.getMessage());
            System.exit(2);
            return;
        }
        new Bench(options).run();
    }

    private void run() throws Exception {
        Plan plan = options.plan();
        report.machine("started", Instant.now().toString())
                .machine("commit", SourceCommit.of(Path.of("").toAbsolutePath()))
                .machine("cores", Integer.toString(Runtime.getRuntime().availableProcessors()))
                .machine("load average before", LoadAverage.read())
                .machine("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"))
                .machine("os", System.getProperty("os.name") + " " + System.getProperty("os.version"))
                .machine("plan", plan.toString());
        try (BenchWorkspace workspace = BenchWorkspace.create()) {
            try {
                measure(workspace, plan);
            } finally {
                while (!closers.isEmpty()) {
                    closeQuietly(closers.pop());
                }
            }
        }
        report.machine("load average after", LoadAverage.read());
        new Goals(report).check();
        Files.createDirectories(options.out());
        new TableWriter(System.out).write(report);
        if (options.markdown().isPresent()) {
            new MarkdownSection(options.markdown().get()).write(TableWriter.text(report));
        }
        new JsonReport().write(report, options.out().resolve("bench.json"));
        new SvgChart().write(report.curves(), options.out().resolve("bench.svg"));
        System.out.println();
        System.out.println("wrote " + options.out().resolve("bench.json") + " and " + options.out().resolve("bench.svg")
                + options.markdown().map(file -> "; the table into " + file).orElse(""));
    }

    private void measure(BenchWorkspace workspace, Plan plan) throws Exception {
        LocalFactories factories = new LocalFactories(workspace);
        // The local figures without isolation keep their goal (1.10x raw); the isolated ones have their own (1.25x).
        SandboxFactory local = factories.create("local", Optional.of("none"));
        closers.push(local);
        SessionHandle session = local.openSession(factories.spec("bench"));
        SandboxFactory isolated = factories.create("local-isolated");
        closers.push(isolated);
        Optional<SessionHandle> isolatedSession = Optional.empty();
        if (isolated.factorySandbox().isolation().equals("namespaces")) {
            isolatedSession = Optional.of(isolated.openSession(factories.spec("bench-isolated")));
        } else {
            report.note("local exec with isolation skipped: bubblewrap does not work here (apt-get install bubblewrap).");
        }
        RawProcess raw = new RawProcess(Path.of(session.filesRoot().orElseThrow()), workspace.processes().environment());
        Optional<DockerSandboxes> docker = docker(workspace);
        boolean dockerCli = docker.isPresent() && workspace.processes().works(workspace.root(), List.of("docker", "version"));
        if (docker.isPresent() && !dockerCli) {
            report.note("docker exec and docker cp skipped: no docker CLI on the PATH.");
        }
        Subjects subjects = new Subjects(workspace, local, session, isolatedSession, raw, docker, dockerCli, testcontainers(docker), cli(workspace));
        docker.ifPresent(d -> report.machine("docker", "engine " + dockerVersion(workspace) + ", image " + options.image()));

        ExecGroups exec = new ExecGroups(subjects);
        progress("exec true");
        report.add(exec.measure(EXEC_TRUE, ExecGroups.TRUE, 0, new Interleaved(plan.execRounds(), plan.warmup())));
        progress("exec true, back to back");
        report.add(exec.measureBackToBack(EXEC_TRUE_BACK_TO_BACK, ExecGroups.TRUE, 0, new Interleaved(plan.execRounds(), plan.warmup())));
        report.note(ExecGroups.BACK_TO_BACK_NOTE);
        progress("exec of a command printing 10 MiB");
        report.add(exec.measure("exec printing 10 MiB", ExecGroups.TEN_MIB, 10L << 20, new Interleaved(plan.bigRounds(), 2)));
        if (subjects.cli().isPresent() && subjects.dockerWithCli().isPresent()) {
            progress("the factory client");
            report.add(new ClientGroups(subjects).measure(subjects.cli().get(), subjects.dockerWithCli().get().containerId(),
                    new Interleaved(plan.execRounds(), plan.warmup())));
        } else {
            report.note("factory client against docker exec skipped: it needs the factory command and the docker CLI.");
        }
        FileGroups files = new FileGroups(subjects);
        if (docker.isPresent()) {
            progress("docker start");
            report.add(new DockerStarts(docker.get()).measure(new Interleaved(plan.openRounds(), 1)));
        }
        progress("files of 1 KiB");
        files.measure("1 KiB", 1024, new Interleaved(plan.smallFileRounds(), plan.warmup())).forEach(report::add);
        progress("files of 10 MiB");
        files.measure("10 MiB", 10 << 20, new Interleaved(plan.bigRounds(), 2)).forEach(report::add);
        progress("opens and factory run");
        report.add(new OpenGroups(subjects, factories).measure(new Interleaved(plan.openRounds(), 1)));
        progress("git fetch through the Git gateway");
        report.add(new GatewayGroups(workspace).measure(new Interleaved(plan.openRounds(), 1)));
        progress("HTTPS requests through the egress proxy");
        try (EgressOverhead egress = EgressOverhead.start(workspace.directory("egress"))) {
            report.add(egress.measure(new Interleaved(plan.execRounds(), plan.warmup())));
        } catch (java.io.IOException e) {
            report.note("egress proxy overhead skipped: " + e.getMessage() + ".");
        }
        progress(CROWD + " concurrent opens");
        try (ConcurrentOpens crowd = new ConcurrentOpens(local, factories, CROWD)) {
            report.add(crowd.measure(new Interleaved(plan.crowdRounds(), 1)));
        }
        if (!options.scaling()) {
            report.note("scaling curves skipped (--no-scaling).");
            return;
        }
        progress("scaling: live sessions " + plan.liveSessions());
        new SessionScaling(factories, plan.scalingProbes()).measure(plan.liveSessions(), report);
        progress("scaling: lease openers " + plan.leaseOpeners());
        new LeaseScaling(workspace, plan.leaseOperations()).measure(plan.leaseOpeners(), report);
        if (subjects.cli().isEmpty()) {
            report.note("factory daemon memory curve skipped: no factory command.");
        } else if (!workspace.processes().works(workspace.root(), List.of("jcmd", "-h"))) {
            report.note("factory daemon memory curve skipped: no jcmd on the PATH (it comes with a JDK, not a JRE).");
        } else {
            progress("scaling: daemon sessions " + plan.daemonSessions());
            new DaemonMemory(workspace, subjects.cli().get().command()).measure(plan.daemonSessions(), report);
        }
    }

    private Optional<DockerSandboxes> docker(BenchWorkspace workspace) {
        if (!options.docker()) {
            report.note("Docker paths skipped (--no-docker).");
            return Optional.empty();
        }
        try {
            DockerSandboxes docker = DockerSandboxes.start(workspace, options.image());
            closers.push(docker);
            return Optional.of(docker);
        } catch (Exception e) {
            report.note("Docker paths skipped: no engine answered (" + e.getMessage() + "); scripts/docker-up.sh starts one.");
            return Optional.empty();
        }
    }

    private Optional<TestcontainersPeer> testcontainers(Optional<DockerSandboxes> docker) {
        if (docker.isEmpty()) {
            return Optional.empty();
        }
        if (!"true".equalsIgnoreCase(System.getenv("TESTCONTAINERS_RYUK_DISABLED")) || System.getenv("TESTCONTAINERS_HOST_OVERRIDE") == null) {
            report.note("Testcontainers skipped: TESTCONTAINERS_RYUK_DISABLED=true and TESTCONTAINERS_HOST_OVERRIDE=localhost are not both set"
                    + " (its Ryuk image needs Docker Hub, its host lookup a bridge network); ./factory bench sets them.");
            return Optional.empty();
        }
        try {
            TestcontainersPeer peer = TestcontainersPeer.start(options.image(), docker.get().apiVersion());
            closers.push(peer);
            return Optional.of(peer);
        } catch (RuntimeException e) {
            report.note("Testcontainers skipped: its container did not start (" + e.getMessage() + ").");
            return Optional.empty();
        }
    }

    private Optional<Subjects.CliSession> cli(BenchWorkspace workspace) throws Exception {
        if (!options.cli()) {
            report.note("factory command paths skipped (--no-cli).");
            return Optional.empty();
        }
        if (!Files.isExecutable(options.factory())) {
            report.note("factory command paths skipped: " + options.factory() + " is not an executable factory command.");
            return Optional.empty();
        }
        FactoryCommand command = new FactoryCommand(options.factory(), workspace);
        Path state = workspace.directory("cli-state");
        closers.push(() -> command.stopDaemons(state));
        command.output(state, "open", "bench", "--repo", workspace.bareRepository().toString(), "--branch", "b");
        if (command.awaitDaemon(state).isEmpty()) {
            report.note("factory open left no daemon: factory exec is timed in its own process.");
        }
        return Optional.of(new Subjects.CliSession(command, state, "bench"));
    }

    private static String dockerVersion(BenchWorkspace workspace) {
        try {
            return workspace.processes().run(workspace.root(), List.of("docker", "version", "--format", "{{.Server.Version}}")).strip();
        } catch (Exception e) {
            return "unknown";
        }
    }

    private static void progress(String part) {
        System.err.println("bench: " + part + " (load " + LoadAverage.read() + ")");
    }

    private static void closeQuietly(AutoCloseable closer) {
        try {
            closer.close();
        } catch (Exception e) {
            System.err.println("bench: cleaning up failed: " + e);
        }
    }
}
