package io.sandboxfactory.cli.session;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** The host's own {@code git}, for commands that work on the user's repository (export). */
public final class HostGit {

    /** What one git command printed and how it exited. */
    public record Result(int exitCode, String stdout, String stderr) {
        /** The first non-blank line of stderr, else the exit code: why it failed, in git's words. */
        String why() {
            return stderr.lines().filter(l -> !l.isBlank()).findFirst().orElse("exit " + exitCode);
        }
    }

    private final Path directory;
    private final Map<String, String> environment;

    public HostGit(Path directory, Map<String, String> environment) {
        this.directory = directory;
        this.environment = environment;
    }

    /** Where git runs: the target repository or a directory inside it. */
    Path directory() {
        return directory;
    }

    public Result run(String... args) {
        List<String> command = new ArrayList<>();
        command.add("git");
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile());
        builder.environment().clear();
        builder.environment().putAll(environment);
        // Never prompt: a question on the terminal would hang a command that only asked git for a ref.
        builder.environment().put("GIT_TERMINAL_PROMPT", "0");
        try {
            Process process = builder.start();
            process.getOutputStream().close();
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> drain(process.getErrorStream()));
            String out = drain(process.getInputStream());
            return new Result(process.waitFor(), out, err.join());
        } catch (IOException e) {
            throw new IllegalStateException("Could not run git on this host (" + e.getMessage() + "); install git.", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while git ran in " + directory + ".", e);
        }
    }

    /** Runs it and returns stdout; a failure is an exception with git's reason and {@code what} it was doing. */
    String require(String what, String... args) {
        Result result = run(args);
        if (result.exitCode() != 0) {
            throw new IllegalStateException("Could not " + what + " in " + directory + ": " + result.why());
        }
        return result.stdout();
    }

    private static String drain(InputStream in) {
        try (in) {
            ByteArrayOutputStream buffer = new ByteArrayOutputStream();
            in.transferTo(buffer);
            return buffer.toString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
