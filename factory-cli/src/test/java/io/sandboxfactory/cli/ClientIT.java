package io.sandboxfactory.cli;

import io.sandboxfactory.cli.client.FactoryClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The minimal client as {@code ./factory} starts it: its own small jar ahead of {@code factory.jar}
 * on the class path. Through a factory daemon it loads nothing from {@code factory.jar} (so neither
 * picocli, Jackson, Guice nor SLF4J); without one the full CLI runs in the same JVM.
 */
class ClientIT {

    private static final String FAILING = "echo out; echo err >&2; exit 7";

    @TempDir
    Path temp;
    @TempDir
    Path state;

    @AfterEach
    void stopDaemons() {
        daemons().stop();
    }

    private Daemons daemons() {
        return new Daemons(state);
    }

    private static Path clientJar() {
        return Path.of(System.getProperty("factory.client.jar", "target/factory-client.jar")).toAbsolutePath();
    }

    /** {@code factory ARGS} as the launcher starts it, with {@code jvmOptions} and {@code env}. */
    private CliProcess.Result client(Map<String, String> env, List<String> jvmOptions, String... args) {
        List<String> command = new ArrayList<>(List.of(CliProcess.javaBin(), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", clientJar() + ":" + StartupArchive.jar(), FactoryClient.class.getName()));
        command.addAll(List.of(args));
        Map<String, String> environment = new HashMap<>(Map.of("FACTORY_STATE_DIR", state.toString(), "FACTORY_PROVIDERS_LOCAL_ISOLATION", "none"));
        environment.putAll(env);
        return CliProcess.exec(command, temp, environment);
    }

    private CliProcess.Result client(String... args) {
        return client(Map.of(), List.of(), args);
    }

    /** The classes a run loaded from a jar, as {@code -Xlog:class+load} wrote them to {@code log}. */
    private static List<String> classesFromJars(Path log) throws Exception {
        return Files.readAllLines(log).stream().filter(line -> line.contains("source: file:")).toList();
    }

    @Test
    void throughTheDaemonOutputStreamsBackWithTheExitCodeAndNothingOfTheFullCliLoads() throws Exception {
        CliProcess.Result open = client("--quiet", "open", "s1", "--repo", GitRepos.bareWithMain(temp, "app").toString(), "--branch", "b1");
        assertThat(open.exitCode()).as(open.toString()).isZero();
        assertThat(Daemons.awaitCondition(() -> daemons().sockets().stream().anyMatch(Daemons::listening)))
                .as("the open, run by the full CLI, started a daemon").isTrue();

        Path classes = temp.resolve("classes.log");
        CliProcess.Result exec = client(Map.of(), List.of("-Xlog:class+load=info:file=" + classes), "--quiet", "exec", "s1", "--", "sh", "-c", FAILING);

        assertThat(exec.exitCode()).as(exec.toString()).isEqualTo(7);
        assertThat(exec.stdout()).isEqualTo("out\n");
        assertThat(exec.stderr()).isEqualTo("err\n");
        assertThat(Files.readString(daemons().logs().get(0))).as("the daemon ran it").contains("served exec: exit 7");
        assertThat(classesFromJars(classes)).isNotEmpty().allSatisfy(line -> assertThat(line).contains("source: file:" + clientJar()));
    }

    @Test
    void withoutADaemonTheFullCliRunsInTheSameJvm() throws Exception {
        Map<String, String> off = Map.of("FACTORY_DAEMON", "off");
        CliProcess.Result open = client(off, List.of(), "--quiet", "open", "s1", "--repo", GitRepos.bareWithMain(temp, "app").toString(),
                "--branch", "b1");
        assertThat(open.exitCode()).as(open.toString()).isZero();

        CliProcess.Result exec = client(off, List.of(), "exec", "s1", "--", "sh", "-c", FAILING);

        assertThat(exec.exitCode()).as(exec.toString()).isEqualTo(7);
        assertThat(exec.stdout()).isEqualTo("out\n");
        assertThat(exec.stderr()).contains("err\n");
        assertThat(daemons().processes()).isEmpty();
        CliProcess.Result providers = client("providers");
        assertThat(providers.exitCode()).as("a command no daemon serves: the full CLI").isZero();
        assertThat(providers.stdout()).contains("local");
    }

    @Test
    void theVersionIsTheLinePicocliPrintsAndLoadsNothingFromTheFullJar() throws Exception {
        Path classes = temp.resolve("classes.log");
        CliProcess.Result client = client(Map.of(), List.of("-Xlog:class+load=info:file=" + classes), "--version");
        CliProcess.Result picocli = client("--quiet", "--version");

        assertThat(client.exitCode()).isZero();
        assertThat(client.stdout()).matches("factory \\S+ \\(Java .+\\)\n").isEqualTo(picocli.stdout());
        assertThat(client.stderr()).isEmpty();
        assertThat(classesFromJars(classes)).allSatisfy(line -> assertThat(line).contains("source: file:" + clientJar()));
        assertThat(new CliProcess(state).in(temp).run("--version").stdout()).as("java -jar factory.jar").isEqualTo(client.stdout());
    }
}
