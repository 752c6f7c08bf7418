package io.sandboxfactory.core.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs the real git CLI on the host for test fixtures: bare remotes, commits, pushes. */
public final class Git {

    private Git() {
    }

    /** Runs {@code git args...} in {@code dir}; fails the test on a non-zero exit. Returns stdout. */
    public static String run(Path dir, String... args) {
        return run(dir, Map.of(), args);
    }

    public static String run(Path dir, Map<String, String> env, String... args) {
        List<String> command = new ArrayList<>();
        command.add("git");
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        builder.environment().put("GIT_AUTHOR_NAME", "Test");
        builder.environment().put("GIT_AUTHOR_EMAIL", "test@example.invalid");
        builder.environment().put("GIT_COMMITTER_NAME", "Test");
        builder.environment().put("GIT_COMMITTER_EMAIL", "test@example.invalid");
        builder.environment().put("GIT_CONFIG_NOSYSTEM", "1");
        builder.environment().putAll(env);
        try {
            Process process = builder.start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("git " + args[0] + " hung");
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("git " + String.join(" ", args) + " failed (exit " + process.exitValue() + "): " + out);
            }
            return out.strip();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * A bare repository at {@code bare} whose {@code main} holds one commit with a README, plus
     * any extra branches given (each one commit ahead of main, touching {@code <branch>.txt}).
     */
    public static Path bareRepository(Path bare, String... extraBranches) throws IOException {
        Files.createDirectories(bare.getParent());
        Path work = Files.createTempDirectory(bare.getParent(), "seed");
        run(work, "init", "-q", "-b", "main");
        Files.writeString(work.resolve("README.md"), "# fixture\n");
        run(work, "add", "README.md");
        run(work, "commit", "-q", "-m", "initial");
        for (String branch : extraBranches) {
            run(work, "checkout", "-q", "-b", branch, "main");
            Files.writeString(work.resolve(branch.replace('/', '_') + ".txt"), branch + "\n");
            run(work, "add", ".");
            run(work, "commit", "-q", "-m", "on " + branch);
        }
        run(work, "checkout", "-q", "main");
        Files.createDirectories(bare);
        run(bare.getParent(), "clone", "-q", "--bare", work.toString(), bare.toString());
        return bare;
    }

    /** Commits {@code file} with {@code content} on top of {@code main} of the bare repository {@code bare} and pushes it there. */
    public static void commitToMain(Path bare, String file, String content) throws IOException {
        Path work = Files.createTempDirectory(bare.getParent(), "work");
        run(work.getParent(), "clone", "-q", bare.toString(), work.toString());
        Files.writeString(work.resolve(file), content);
        run(work, "add", file);
        run(work, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "change " + file);
        run(work, "push", "-q", "origin", "HEAD:main");
    }

    /** The commit {@code ref} points at in repository {@code dir}. */
    public static String revParse(Path dir, String ref) {
        return run(dir, "rev-parse", ref);
    }
}
