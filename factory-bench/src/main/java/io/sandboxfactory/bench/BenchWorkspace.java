package io.sandboxfactory.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The temporary directory one bench run works in: its fixture repository (a local bare repository
 * of one commit, made with the real git), the state directories of its factories, and a home and
 * config directory of its own so no user config reaches the factories or the CLI. Removed at the end.
 */
public final class BenchWorkspace implements AutoCloseable {

    private final Path root;
    private final Processes processes;
    private final Path bareRepository;

    private BenchWorkspace(Path root, Processes processes, Path bareRepository) {
        this.root = root;
        this.processes = processes;
        this.bareRepository = bareRepository;
    }

    public static BenchWorkspace create() throws IOException, InterruptedException {
        Path root = Files.createTempDirectory("factory-bench").toRealPath();
        Path home = Files.createDirectories(root.resolve("home"));
        Map<String, String> env = new HashMap<>();
        env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/local/bin:/usr/bin:/bin"));
        env.put("HOME", home.toString());
        env.put("XDG_CONFIG_HOME", home.resolve(".config").toString());
        env.put("LANG", "C.UTF-8");
        for (String passed : List.of("JAVA_HOME", "DOCKER_HOST", "TMPDIR")) {
            String value = System.getenv(passed);
            if (value != null) {
                env.put(passed, value);
            }
        }
        Processes processes = new Processes(env);
        Path seed = Files.createDirectories(root.resolve("seed"));
        processes.run(seed, List.of("git", "init", "-q", "-b", "main"));
        Files.writeString(seed.resolve("README"), "bench fixture\n");
        processes.run(seed, List.of("git", "add", "README"));
        processes.run(seed, List.of("git", "-c", "user.name=bench", "-c", "user.email=bench@localhost", "-c", "commit.gpgsign=false",
                "commit", "-q", "-m", "bench"));
        Path bare = root.resolve("repo.git");
        processes.run(root, List.of("git", "clone", "-q", "--bare", seed.toString(), bare.toString()));
        return new BenchWorkspace(root, processes, bare);
    }

    public Path root() {
        return root;
    }

    public Processes processes() {
        return processes;
    }

    public Path bareRepository() {
        return bareRepository;
    }

    /** A new, empty directory under the workspace. */
    public Path directory(String name) throws IOException {
        Path dir = root.resolve(name);
        if (Files.exists(dir)) {
            throw new IllegalStateException("Workspace directory '" + dir + "' exists already; each name is used once.");
        }
        return Files.createDirectories(dir);
    }

    @Override
    public void close() throws IOException {
        delete(root);
    }

    public static void delete(Path tree) throws IOException {
        if (!Files.exists(tree)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(tree)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
