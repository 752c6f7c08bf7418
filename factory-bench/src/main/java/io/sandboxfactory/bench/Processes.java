package io.sandboxfactory.bench;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Host programs the bench runs: git, docker, the factory command. A non-zero exit fails the bench with the program's output. */
public final class Processes {

    private final Map<String, String> environment;

    /** @param environment the whole environment of every program started (nothing of the bench JVM's own leaks in) */
    public Processes(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    public Map<String, String> environment() {
        return environment;
    }

    /** Runs {@code command} in {@code cwd} and returns its stdout and stderr together. */
    public String run(Path cwd, List<String> command) throws IOException, InterruptedException {
        return run(cwd, Map.of(), command);
    }

    public String run(Path cwd, Map<String, String> extraEnv, List<String> command) throws IOException, InterruptedException {
        ProcessBuilder builder = builder(cwd, extraEnv, command).redirectErrorStream(true);
        Process process = builder.start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(10, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not end within 10 minutes.");
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " exited " + process.exitValue() + ": " + output.strip());
        }
        return output;
    }

    /** Runs {@code command} with stdin empty and its output discarded, as a shell user would time it; fails on a non-zero exit. */
    public void quiet(Path cwd, Map<String, String> extraEnv, List<String> command) throws IOException, InterruptedException {
        Process process = builder(cwd, extraEnv, command).redirectInput(new File("/dev/null"))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        int exit = process.waitFor();
        if (exit != 0) {
            throw new IllegalStateException(String.join(" ", command) + " exited " + exit + ".");
        }
    }

    /** Whether {@code program} runs at all (on the PATH and exits 0 for {@code args}). */
    public boolean works(Path cwd, List<String> command) {
        try {
            quiet(cwd, Map.of(), command);
            return true;
        } catch (IOException | IllegalStateException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private ProcessBuilder builder(Path cwd, Map<String, String> extraEnv, List<String> command) {
        ProcessBuilder builder = new ProcessBuilder(command).directory(cwd.toFile());
        builder.environment().clear();
        builder.environment().putAll(environment);
        builder.environment().putAll(extraEnv);
        return builder;
    }
}
