package io.sandboxfactory.core.internal.git;

import io.sandboxfactory.api.CommandRequest;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.support.HostCommandRunner;
import io.sandboxfactory.core.config.DurationFormat;
import io.sandboxfactory.core.session.Redaction;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * git run by the factory on the host (the object cache's and the Git gateway's mirrors): a shell line
 * with only PATH, HOME and git's variables (the token among them, never in argv), a timeout that
 * kills git with its helpers, failures as {@link IOException}s carrying the tail of git's words with
 * the variables' secrets masked.
 */
public final class HostGit {

    private static final long OUTPUT_BYTES = 64 * 1024;

    private final Duration timeout;
    private final HostCommandRunner commands;

    /** @param name who runs git, named in failures */
    public HostGit(String name, Duration timeout) {
        this.timeout = timeout;
        this.commands = new HostCommandRunner(name);
    }

    /** Runs {@code script} in {@code cwd}; its standard output. */
    public String run(Path cwd, String script, Map<String, String> gitEnv) throws IOException {
        Map<String, String> env = new LinkedHashMap<>();
        for (String name : List.of("PATH", "HOME")) {
            Optional.ofNullable(System.getenv(name)).ifPresent(value -> env.put(name, value));
        }
        CommandRequest request = new CommandRequest(script, gitEnv, Optional.empty(), Optional.of(timeout), Optional.empty(),
                Optional.empty(), OUTPUT_BYTES);
        CommandResult result = commands.run(request, cwd, env);
        if (result.timedOut()) {
            throw new IOException("git on the host timed out after " + DurationFormat.format(timeout));
        }
        if (result.exitCode() != 0) {
            String words = result.stderr().isBlank() ? result.stdout() : result.stderr();
            throw new IOException("exit " + result.exitCode() + ": " + Redaction.ofEnvironment(gitEnv).apply(GitErrors.tail(words)));
        }
        return result.stdout();
    }

    /** Kills every git still running here. */
    public void killAll() {
        commands.killAll();
    }

    /** A file name for {@code url}'s mirror. */
    public static String key(String url) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(url.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).substring(0, 24);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }
}
