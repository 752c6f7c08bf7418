package io.sandboxfactory.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Real bare repositories for CLI tests, made with the real git. */
public final class GitRepos {

    private GitRepos() {
    }

    /** A bare repository with one commit on {@code main} holding README.md. */
    public static Path bareWithMain(Path parent, String name) throws Exception {
        Path work = parent.resolve(name + "-work");
        Path bare = parent.resolve(name + ".git");
        git(parent, "init", "-q", "-b", "main", work.toString());
        Files.writeString(work.resolve("README.md"), "hello from " + name + "\n");
        git(work, "add", "README.md");
        git(work, "-c", "user.name=Test", "-c", "user.email=test@example.invalid", "commit", "-q", "-m", "first");
        git(parent, "clone", "-q", "--bare", work.toString(), bare.toString());
        return bare;
    }

    /** A bare repository whose default branch ({@code HEAD}) is {@code trunk}, one commit ahead of {@code main}. */
    static Path bareWithTrunk(Path parent, String name) throws Exception {
        Path bare = bareWithMain(parent, name);
        Path work = parent.resolve(name + "-work");
        git(work, "checkout", "-q", "-b", "trunk");
        Files.writeString(work.resolve("TRUNK.md"), "on trunk\n");
        git(work, "add", "TRUNK.md");
        git(work, "-c", "user.name=Test", "-c", "user.email=test@example.invalid", "commit", "-q", "-m", "trunk work");
        git(work, "push", "-q", bare.toString(), "trunk");
        git(bare, "symbolic-ref", "HEAD", "refs/heads/trunk");
        return bare;
    }

    static void deleteRecursively(Path dir) {
        CliProcess.Result result = CliProcess.exec(List.of("rm", "-rf", dir.toString()), dir.getParent(), Map.of());
        if (result.exitCode() != 0) {
            throw new IllegalStateException("rm -rf " + dir + " failed: " + result);
        }
    }

    public static String git(Path cwd, String... args) {
        List<String> command = new ArrayList<>();
        command.add("git");
        command.addAll(List.of(args));
        CliProcess.Result result = CliProcess.exec(command, cwd, Map.of());
        if (result.exitCode() != 0) {
            throw new IllegalStateException("git " + String.join(" ", args) + " failed: " + result);
        }
        return result.stdout();
    }
}
