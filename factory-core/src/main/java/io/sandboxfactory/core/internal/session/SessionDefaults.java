package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.host.RepositoryAccessSource;
import io.sandboxfactory.core.config.GitConfig;
import io.sandboxfactory.core.internal.git.GitRefs;
import io.sandboxfactory.core.internal.git.RetryPolicy;
import io.sandboxfactory.core.session.SessionSpec;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The factory-wide defaults a {@link SessionSpec} falls back on, usually from configuration.
 *
 * @param baseBranch the base of new session branches; empty: each repository's default branch
 * @param setupCommands setup for sessions that name none
 * @param teardownCommands teardown for sessions that name none
 * @param locator expands slugs through the clone URL template
 * @param token supplies a fresh token per start for repositories without their own access source
 * @param timeouts command time limits
 * @param retry clone and fetch retries on transient failures
 * @param gitIdentity the author of commits in every checkout (both parts set)
 * @param setupSecrets setup secrets (names) for single-repository sessions that name none
 * @param hostEnvironment where setup secrets are read from at open
 */
public record SessionDefaults(Optional<String> baseBranch, List<String> setupCommands, List<String> teardownCommands,
                              RepositoryLocator locator, Optional<Supplier<String>> token, SessionTimeouts timeouts,
                              RetryPolicy retry, GitConfig.User gitIdentity, List<String> setupSecrets,
                              Map<String, String> hostEnvironment) {

    /** The identity when none is given: the built-in one, never the host's (that default belongs to the configuration). */
    static final GitConfig.User BUILT_IN_IDENTITY = new GitConfig.User(GitConfig.DEFAULT_NAME, GitConfig.DEFAULT_EMAIL);

    public SessionDefaults {
        gitIdentity = Objects.requireNonNullElse(gitIdentity, BUILT_IN_IDENTITY);
        if (gitIdentity.name() == null || gitIdentity.email() == null) {
            throw new IllegalArgumentException("A session's git identity needs a name and an email: " + gitIdentity);
        }
        baseBranch.ifPresent(base -> GitRefs.requireValid(base, "Default base branch"));
        setupCommands = List.copyOf(setupCommands);
        teardownCommands = List.copyOf(teardownCommands);
        Objects.requireNonNull(locator, "locator");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(timeouts, "timeouts");
        Objects.requireNonNull(retry, "retry");
        setupSecrets = List.copyOf(setupSecrets);
        hostEnvironment = Map.copyOf(hostEnvironment);
    }

    /** With the built-in git identity and no setup secrets. */
    public SessionDefaults(Optional<String> baseBranch, List<String> setupCommands, List<String> teardownCommands, RepositoryLocator locator,
                           Optional<Supplier<String>> token, SessionTimeouts timeouts, RetryPolicy retry) {
        this(baseBranch, setupCommands, teardownCommands, locator, token, timeouts, retry, null, List.of(), Map.of());
    }

    /** Never shows the token supplier (a host's supplier may print the token it holds) nor the host environment. */
    @Override
    public String toString() {
        return "SessionDefaults[baseBranch=" + baseBranch.orElse("<remote HEAD>") + ", setupCommands=" + setupCommands + ", teardownCommands="
                + teardownCommands + ", token=" + (token.isPresent() ? "<supplied>" : "none") + ", timeouts=" + timeouts
                + ", retry=" + retry + ", gitIdentity=" + gitIdentity + ", setupSecrets=" + setupSecrets + "]";
    }

    /** Each repository's default branch as base, no setup or teardown, GitHub slugs, anonymous access, default timeouts and retries. */
    public static SessionDefaults defaults() {
        return new SessionDefaults(Optional.empty(), List.of(), List.of(), RepositoryLocator.github(), Optional.empty(),
                SessionTimeouts.defaults(), RetryPolicy.defaults());
    }

    /** These defaults with other clone and fetch retries. */
    public SessionDefaults withRetry(RetryPolicy retry) {
        return new SessionDefaults(baseBranch, setupCommands, teardownCommands, locator, token, timeouts, retry, gitIdentity, setupSecrets,
                hostEnvironment);
    }

    /**
     * The access source of {@code repository} unless the session supplied {@code explicit}. Either
     * way the repository must pass the locator (its rules and allowed file roots) first, so a
     * refused repository fails before anything is created.
     */
    RepositoryAccessSource accessFor(String repository, Optional<RepositoryAccessSource> explicit) {
        locator.cloneUrl(repository);
        return explicit.orElseGet(() -> locator.defaultSource(repository, token));
    }
}
