package io.sandboxfactory.cli;

import io.sandboxfactory.core.session.SessionLabels;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.session.StartMode;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The options that describe a session: repository, branch, base, setup and teardown. */
final class SessionOptions {

    @Option(names = "--repo", paramLabel = "R", required = true,
            description = "Repository: an owner/name slug (cloned from the configured base URL, default GitHub), a clone URL, or a local path.")
    String repo;

    @Option(names = "--branch", paramLabel = "B", required = true, description = "Session branch; created from the base when new.")
    String branch;

    @Option(names = "--base", paramLabel = "X",
            description = "Base branch for a new session branch (default: repository.defaultBaseBranch from config, else the repository's own default branch).")
    String base;

    @Option(names = "--setup", paramLabel = "CMD", description = "Setup command, run once per sandbox in the checkout; repeatable.")
    List<String> setup = new ArrayList<>();

    @Option(names = "--teardown", paramLabel = "CMD", description = "Teardown command, run when the session is retired; repeatable.")
    List<String> teardown = new ArrayList<>();

    @Option(names = "--label", paramLabel = "KEY=VALUE", description = "A label to find the session by (retire --label); repeatable.")
    List<String> labels = new ArrayList<>();

    SessionSpec spec(String sessionId, Path workingDirectory, StartMode mode) {
        SessionSpec.Builder builder = SessionSpec.builder(sessionId)
                .repository(repository(repo, workingDirectory))
                .branch(branch)
                .startMode(mode);
        if (base != null) {
            builder.baseBranch(base);
        }
        if (!setup.isEmpty()) {
            builder.setupCommands(setup);
        }
        if (!teardown.isEmpty()) {
            builder.teardownCommands(teardown);
        }
        for (String label : labels) {
            Map.Entry<String, String> pair = SessionLabels.parse(label);
            builder.label(pair.getKey(), pair.getValue());
        }
        return builder.build();
    }

    /**
     * A repository argument naming an existing local directory is made absolute, since the sandbox
     * runs elsewhere; a slug or URL stays as given.
     */
    static String repository(String repo, Path workingDirectory) {
        if (repo.contains("://") || repo.startsWith("git@")) {
            return repo;
        }
        Path local = workingDirectory.resolve(repo).normalize();
        boolean looksLocal = repo.startsWith(".") || repo.startsWith("/") || repo.startsWith("~")
                || Files.isDirectory(local.resolve(".git")) || Files.isRegularFile(local.resolve("HEAD"));
        return looksLocal ? local.toString() : repo;
    }
}
