package io.sandboxfactory.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs the real {@code factory.jar} as a subprocess, the way a user does: as {@code ./factory} starts it ({@link StartupArchive}). */
final class CliProcess {

    public record Result(int exitCode, String stdout, String stderr) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout ---\n" + stdout + "\n--- stderr ---\n" + stderr;
        }
    }

    private final Path jar;
    private final Path stateDir;
    private final Map<String, String> env = new HashMap<>();
    private Path workingDirectory;

    /**
     * Without the factory daemon unless {@link #withDaemon()}: a daemon outlives the command that
     * started it, and each test's state directory is deleted right after the test.
     */
    CliProcess(Path stateDir) {
        this.jar = StartupArchive.jar();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("The CLI jar " + jar + " is missing; run the package phase first.");
        }
        this.stateDir = stateDir;
        this.workingDirectory = stateDir;
        env.put("FACTORY_DAEMON", "off");
    }

    /** Lets commands use (and start) the factory daemon of the state directory, as users' commands do. */
    CliProcess withDaemon() {
        env.remove("FACTORY_DAEMON");
        return this;
    }

    CliProcess env(String name, String value) {
        env.put(name, value);
        return this;
    }

    CliProcess in(Path directory) {
        this.workingDirectory = directory;
        return this;
    }

    Result run(String... args) {
        return exec(command(args), workingDirectory, env, "", Optional.of(stateDir));
    }

    /** Runs the command with {@code input} on its stdin (then closed). */
    Result runWithInput(String input, String... args) {
        return exec(command(args), workingDirectory, env, input, Optional.of(stateDir));
    }

    /**
     * Runs the command under {@code script}, on a pseudo-terminal of its own, typing {@code input}
     * into it: as a user at a terminal runs it.
     */
    Result runOnTerminal(String input, String... args) {
        return exec(List.of("script", "-qec", shellLine(command(args)), "/dev/null"), workingDirectory, env, input, Optional.of(stateDir));
    }

    /** The words as one {@code sh -c} line that gives them back unchanged. */
    static String shellLine(List<String> words) {
        return String.join(" ", words.stream().map(word -> "'" + word.replace("'", "'\\''") + "'").toList());
    }

    /** Starts the command without waiting for it; its output goes nowhere. */
    Process start(String... args) throws IOException {
        return builder(command(args), workingDirectory, env).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    private List<String> command(String... args) {
        List<String> command = new ArrayList<>(List.of(javaBin()));
        command.addAll(StartupArchive.jvmOptions());
        command.addAll(List.of("-jar", jar.toString(), "--state-dir", stateDir.toString()));
        command.addAll(List.of(args));
        return command;
    }

    private static ProcessBuilder builder(List<String> command, Path cwd, Map<String, String> extraEnv) {
        ProcessBuilder builder = new ProcessBuilder(command).directory(cwd.toFile());
        builder.environment().keySet().removeIf(k -> k.startsWith("FACTORY_"));
        builder.environment().putAll(extraEnv);
        return builder;
    }

    static Result exec(List<String> command, Path cwd, Map<String, String> extraEnv) {
        return exec(command, cwd, extraEnv, "");
    }

    static Result exec(List<String> command, Path cwd, Map<String, String> extraEnv, String input) {
        return exec(command, cwd, extraEnv, input, Optional.empty());
    }

    private static Result exec(List<String> command, Path cwd, Map<String, String> extraEnv, String input, Optional<Path> stateDir) {
        ProcessBuilder builder = builder(command, cwd, extraEnv);
        try {
            Process process = builder.start();
            try (var stdin = process.getOutputStream()) {
                stdin.write(input.getBytes(StandardCharsets.UTF_8));
            }
            CompletableFuture<String> out = drain(process.getInputStream());
            CompletableFuture<String> err = drain(process.getErrorStream());
            if (!process.waitFor(10, TimeUnit.MINUTES)) {
                String threads = HangReport.of(process.toHandle(), stateDir);
                process.destroyForcibly().waitFor();
                // What it printed says where it hung; a process it started may still hold the pipes.
                throw new IllegalStateException("Command did not finish within 10 minutes: " + command + "\n" + threads
                        + "\n--- stdout so far ---\n" + out.completeOnTimeout("(pipe still open)", 10, TimeUnit.SECONDS).join()
                        + "\n--- stderr so far ---\n" + err.completeOnTimeout("(pipe still open)", 10, TimeUnit.SECONDS).join());
            }
            return new Result(process.exitValue(), out.join(), err.join());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static CompletableFuture<String> drain(InputStream in) {
        return CompletableFuture.supplyAsync(() -> {
            try (in) {
                ByteArrayOutputStream buffer = new ByteArrayOutputStream();
                in.transferTo(buffer);
                return buffer.toString(StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
