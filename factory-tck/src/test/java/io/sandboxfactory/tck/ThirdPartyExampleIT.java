package io.sandboxfactory.tck;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Builds examples/third-party-provider as a third party would: a separate Maven project, resolved
 * from a temporary local repository that holds only this build's artifacts (the parent pom,
 * factory-api, factory-store-api, store-jdbc-support, factory-core, factory-tck). Everything else
 * comes from the developer's or CI's Maven cache, served as a read-only file repository, with Maven
 * Central behind it. The example's
 * build runs the kit against its provider; this test checks the kit's report, then drops the
 * example's jar into a plugins directory and runs the real {@code factory} command with it.
 *
 * <p>The example is built with the Maven an author has: {@code $MVN}, else {@code mvn} on the
 * PATH (CI installs Debian's 3.8.7, whose default surefire 2.12.4 once ran no JUnit 5 test while
 * the build said SUCCESS), else the reactor's wrapper.
 */
class ThirdPartyExampleIT {

    private static final List<String> REACTOR_MODULES = List.of("factory-api", "factory-store-api", "store-jdbc-support", "factory-core",
            "factory-tck");
    private static final Pattern COUNTS = Pattern.compile("tests=\"(\\d+)\"[^>]*errors=\"(\\d+)\"[^>]*skipped=\"(\\d+)\"[^>]*failures=\"(\\d+)\"");

    @TempDir
    Path temp;

    private Path root;
    private String version;
    private Path repository;
    private Path example;
    private String mavenUsed;

    @BeforeEach
    void installReactorArtifactsIntoATemporaryRepository() throws IOException {
        root = Path.of(System.getProperty("sandboxfactory.root", "..")).toAbsolutePath().normalize();
        version = System.getProperty("sandboxfactory.version", "0.1.0-SNAPSHOT");
        repository = Files.createDirectories(temp.resolve("repository"));
        place("sandbox-factory-parent", root.resolve("pom.xml"), null);
        place("factory-provider-parent", root.resolve("factory-provider-parent/pom.xml"), null);
        for (String module : REACTOR_MODULES) {
            Path jar = root.resolve(module).resolve("target").resolve(module + "-" + version + ".jar");
            assertThat(jar).as("the packaged %s jar; build the reactor first (./mvnw -pl factory-tck -am verify)", module).isRegularFile();
            place(module, root.resolve(module).resolve("pom.xml"), jar);
        }
        mavenUsed = authorsMaven();
        example = temp.resolve("third-party-provider");
        copyTree(root.resolve("examples/third-party-provider"), example);
    }

    @Test
    void theExampleProviderPassesTheKitAndRunsAsAPluginOfTheCli() throws Exception {
        Path log = temp.resolve("example-build.log");
        int exit = maven(log, "verify");

        assertThat(exit).as("the example's build with %s (log below)%n%s", mavenUsed, tail(log)).isZero();
        Path report = example.resolve("target/surefire-reports/TEST-com.example.tmpdir.TmpdirProviderContractTest.xml");
        assertThat(report).as("the kit's report in the example's build").isRegularFile();
        Matcher counts = COUNTS.matcher(Files.readString(report));
        assertThat(counts.find()).as("test counts in %s", report).isTrue();
        assertThat(Integer.parseInt(counts.group(1))).as("cases the kit ran with %s", mavenUsed).isGreaterThanOrEqualTo(30);
        assertThat(Integer.parseInt(counts.group(2)) + Integer.parseInt(counts.group(4))).as("cases that failed").isZero();
        Path jar = example.resolve("target/tmpdir-sandbox-provider-1.0.0-SNAPSHOT.jar");
        assertThat(jar).isRegularFile();

        Path plugins = Files.createDirectories(temp.resolve("plugins"));
        Files.copy(jar, plugins.resolve(jar.getFileName()));
        CliResult providers = factory(plugins, "providers");
        assertThat(providers.exitCode()).as(providers.toString()).isZero();
        assertThat(providers.stdout()).as(providers.toString())
                .contains("tmpdir  Every session in its own directory under a temporary root")
                // The labels are aligned to the longest one any provider shows (isolation: for the selected one).
                .containsPattern("class: +com\\.example\\.tmpdir\\.TmpdirSandboxProvider")
                .containsPattern("jar: +" + Pattern.quote(plugins.resolve(jar.getFileName()).toString()))
                .containsPattern("config: +root, env");

        Path sessions = temp.resolve("tmpdir-sessions");
        Path config = Files.writeString(temp.resolve("factory.yaml"), "providers:\n  tmpdir:\n    root: " + sessions + "\n");
        Path remote = FixtureRepository.create(temp.resolve("remote"));
        CliResult run = factory(plugins, "--config", config.toString(), "run", "--provider", "tmpdir", "--session", "cli-run",
                "--keep", "--repo", remote.toString(), "--branch", "demo", "--setup", "echo set up > ../setup.txt",
                "--", "sh", "-c", "cat README.md; pwd; git rev-parse --abbrev-ref HEAD; exit 7");
        assertThat(run.exitCode()).as("the command's own exit code; %s", run).isEqualTo(7);
        assertThat(run.stdout()).as(run.toString())
                .contains(FixtureRepository.README)
                .contains(sessions.resolve("cli-run").toString())
                .contains("demo\n");
        assertThat(sessions.resolve("cli-run/setup.txt")).as("the setup ran in the tmpdir provider's session directory")
                .hasContent("set up");
    }

    /** What one run of the factory command did. */
    private record CliResult(int exitCode, String stdout, String stderr) {
        @Override
        public String toString() {
            return "factory exited " + exitCode + "\n--- stdout ---\n" + stdout + "\n--- stderr ---\n" + stderr;
        }
    }

    /** Runs the CLI jar the reactor built, as ./factory does, with {@code plugins} as FACTORY_PLUGINS. */
    private CliResult factory(Path plugins, String... args) throws IOException, InterruptedException {
        Path cli = root.resolve("factory-cli/target/factory.jar");
        assertThat(cli).as("the CLI jar; build the reactor first (./mvnw -pl factory-tck -am verify)").isRegularFile();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                cli.toString(), "--state-dir", temp.resolve("state").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(temp.toFile())
                .redirectOutput(temp.resolve("cli.out").toFile()).redirectError(temp.resolve("cli.err").toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("FACTORY_"));
        builder.environment().put("FACTORY_PLUGINS", plugins.toString());
        Process process = builder.start();
        process.getOutputStream().close();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("factory " + String.join(" ", args) + " did not finish within 2 minutes");
        }
        return new CliResult(process.exitValue(), Files.readString(temp.resolve("cli.out")), Files.readString(temp.resolve("cli.err")));
    }

    /** The Maven a provider author builds with: {@code $MVN}, else {@code mvn} on the PATH, else the reactor's wrapper. */
    private String authorsMaven() {
        String chosen = System.getenv("MVN");
        if (chosen != null && !chosen.isBlank()) {
            return chosen;
        }
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(":")).filter(dir -> !dir.isEmpty())
                .map(dir -> Path.of(dir, "mvn")).filter(Files::isExecutable).findFirst()
                .map(Path::toString).orElse(root.resolve("mvnw").toString());
    }

    /** Runs the author's Maven on the example with the temporary repository; returns its exit code. */
    private int maven(Path log, String... goals) throws IOException, InterruptedException {
        System.out.println("Building the example with " + mavenUsed);
        List<String> command = new ArrayList<>(List.of(mavenUsed, "-B", "-q",
                "-s", settings().toString(),
                "-Dmaven.repo.local=" + repository,
                "-Dsandbox-factory.version=" + version,
                "-f", example.resolve("pom.xml").toString()));
        command.addAll(List.of(goals));
        Process process = new ProcessBuilder(command).directory(example.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!process.waitFor(5, TimeUnit.MINUTES)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new AssertionError("The example's build did not finish within 5 minutes; log:\n" + tail(log));
        }
        return process.exitValue();
    }

    /**
     * Settings that put the outer build's Maven cache, read-only, in front of Maven Central: fast
     * and offline when the cache has everything (it holds what this reactor's build resolved),
     * online otherwise. The cache serves releases only; the snapshots come from the temporary repository.
     */
    private Path settings() throws IOException {
        String cache = Path.of(System.getProperty("sandboxfactory.localRepository",
                System.getProperty("user.home") + "/.m2/repository")).toUri().toString();
        String repo = "<id>build-cache</id><url>" + cache + "</url>"
                + "<releases><enabled>true</enabled></releases><snapshots><enabled>false</enabled></snapshots>";
        String xml = "<settings><profiles><profile><id>build-cache</id>"
                + "<repositories><repository>" + repo + "</repository></repositories>"
                + "<pluginRepositories><pluginRepository>" + repo + "</pluginRepository></pluginRepositories>"
                + "</profile></profiles><activeProfiles><activeProfile>build-cache</activeProfile></activeProfiles></settings>";
        return Files.writeString(temp.resolve("settings.xml"), xml);
    }

    /** Puts a pom (and jar) where a local repository keeps io.sandboxfactory:{artifact}:{version}. */
    private void place(String artifact, Path pom, Path jar) throws IOException {
        Path dir = Files.createDirectories(repository.resolve("io/sandboxfactory").resolve(artifact).resolve(version));
        Files.copy(pom, dir.resolve(artifact + "-" + version + ".pom"), StandardCopyOption.REPLACE_EXISTING);
        if (jar != null) {
            Files.copy(jar, dir.resolve(artifact + "-" + version + ".jar"), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> tree = Files.walk(from)) {
            for (Path source : tree.filter(p -> !from.relativize(p).startsWith("target")).toList()) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private static String tail(Path log) throws IOException {
        if (!Files.exists(log)) {
            return "<no log>";
        }
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    }
}
