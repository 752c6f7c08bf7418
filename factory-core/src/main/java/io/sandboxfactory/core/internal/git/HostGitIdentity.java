package io.sandboxfactory.core.internal.git;

import io.sandboxfactory.core.config.GitConfig;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The git identity of the user running the factory, as {@code git config --global} reads it with
 * {@code HOME} at that user's home: the default of {@code git.user.name} and {@code git.user.email}.
 * A value git does not have, cannot give (no git on the host) or that no commit header could carry
 * counts as absent.
 */
public final class HostGitIdentity {

    private final Path home;

    public HostGitIdentity(Path home) {
        this.home = home;
    }

    /** {@code user.name} and {@code user.email} of the host's global git config, each null when absent. */
    public GitConfig.User read() {
        return new GitConfig.User(value("user.name").orElse(null), value("user.email").orElse(null));
    }

    private Optional<String> value(String key) {
        try {
            ProcessBuilder builder = new ProcessBuilder("git", "config", "--global", "--get", key)
                    .redirectError(ProcessBuilder.Redirect.DISCARD);
            builder.environment().put("HOME", home.toString());
            Process git = builder.start();
            git.getOutputStream().close();
            String value = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            // git ends the value with one line break; a value holding another one is no identity.
            value = value.endsWith("\n") ? value.substring(0, value.length() - 1) : value;
            return git.waitFor() == 0 && GitConfig.User.valid(value) ? Optional.of(value.strip()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
