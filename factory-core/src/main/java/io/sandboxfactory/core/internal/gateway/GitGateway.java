package io.sandboxfactory.core.internal.gateway;

import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.host.RepositoryAccess;
import io.sandboxfactory.api.CommandExecutor;
import io.sandboxfactory.core.internal.channel.HostChannel;
import io.sandboxfactory.core.internal.channel.SessionChannels;
import io.sandboxfactory.core.internal.git.GitCredentials;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Git gateway (design §10.4): the repository token stays in the factory. A session whose
 * repositories need a token gets, instead of the token, a {@link HostChannel} of its own (its
 * capability: only its sandbox sees the directory; revoked when it is retired) and an env overlay
 * that rewrites each such repository's URL ({@code url.<ext>.insteadOf}) to git's {@code ext}
 * transport through that channel. So {@code git fetch}, {@code pull} and {@code push origin HEAD}
 * work in the sandbox as typed, with no network and no token there. On the host the gateway serves
 * each connection from a bare mirror it first fetches from upstream with the session's token
 * ({@code git upload-pack}), or takes a push into it ({@code git receive-pack}) whose pre-receive hook
 * refuses every ref but the session's branch (and its {@code repository.pushNamespace}) and pushes
 * upstream before the mirror accepts. A header naming another service, or a repository that is not
 * one of the session's, is refused.
 *
 * <p>With {@code repository.exposeToken: true} the gateway stands aside: the token goes into the
 * sandbox's env overlay as before ({@link GitCredentials}).
 */
public final class GitGateway implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GitGateway.class);

    private final Path stateDirectory;
    private final Path hooks;
    private final GatewayMirrors mirrors;
    private final boolean exposeToken;
    private final Optional<String> pushNamespace;
    private final boolean hostDirectories;
    private final boolean streams;
    private final String provider;
    private final Map<String, ServedSession> sessions = new ConcurrentHashMap<>();
    private final GitServices services;

    /**
     * @param stateDirectory where channels, mirrors and hooks live ({@code channels/}, {@code gateway/})
     * @param timeout how long one host git command may take
     * @param exposeToken {@code repository.exposeToken}: the gateway stands aside
     * @param pushNamespace {@code repository.pushNamespace}: a branch namespace every session may push to
     * @param hostDirectories whether the provider's sandboxes see host directories (a host channel's way in)
     * @param streams whether the provider's sandboxes offer streams (a bridged channel's way in)
     * @param provider the provider's name, for messages
     */
    public GitGateway(Path stateDirectory, Duration timeout, boolean exposeToken, Optional<String> pushNamespace, boolean hostDirectories,
                      boolean streams, String provider) {
        this.stateDirectory = stateDirectory;
        this.hooks = stateDirectory.resolve("gateway").resolve("hooks");
        this.mirrors = new GatewayMirrors(stateDirectory.resolve("gateway").resolve("mirrors"), timeout);
        this.services = new GitServices(Objects.requireNonNull(timeout, "timeout"));
        this.exposeToken = exposeToken;
        this.pushNamespace = Objects.requireNonNull(pushNamespace, "pushNamespace");
        this.hostDirectories = hostDirectories;
        this.streams = streams;
        this.provider = Objects.requireNonNull(provider, "provider");
    }

    /**
     * The directory a new sandbox of {@code sessionId} must see (made now, empty), when the gateway may
     * serve it; empty when the token is exposed or the provider's sandboxes cannot see host directories.
     */
    public Optional<Path> directoryFor(String sessionId) {
        if (exposeToken || !hostDirectories) {
            return Optional.empty();
        }
        Path directory = channelDirectory(sessionId);
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("The Git gateway's directory " + directory + " could not be made: " + e.getMessage(), e);
        }
        return Optional.of(directory);
    }

    /**
     * Routes {@code access} (the session's repositories, tokens freshly minted) for session {@code
     * sessionId} on {@code branch}: registers the session with the gateway (or updates its tokens) when
     * a repository needs a token, and says what the sandbox gets. A new registration opens the
     * session's channel into {@code sandbox} (started; {@code exec} runs its commands) the way it can
     * use one ({@link SessionChannels}).
     */
    public GitRoute route(String sessionId, String branch, List<RepositoryAccess> access, Object sandbox, CommandExecutor exec) {
        List<Integer> served = new ArrayList<>();
        for (int i = 0; i < access.size(); i++) {
            if (GitCredentials.of(access.get(i)).active()) {
                served.add(i);
            }
        }
        if (served.isEmpty() || exposeToken) {
            revoke(sessionId, false);
            return new GitRoute(GitCredentials.of(access.get(0)).overlayEnv(), access);
        }
        if (!hostDirectories && !streams) {
            throw unavailable(sessionId, access.get(served.get(0)), "the sandboxes of provider '" + provider
                    + "' cannot reach the Git gateway (they see no host directories and offer no streams)");
        }
        ServedSession registration = sessions.compute(sessionId, (id, current) -> {
            if (current != null && current.serving()) {
                current.update(access);
                return current;
            }
            if (current != null) {
                current.close();
            }
            return open(id, branch, access, sandbox, exec);
        });
        List<RepositoryAccess> sandboxAccess = new ArrayList<>(access);
        Map<String, String> env = new LinkedHashMap<>();
        int k = 0;
        for (int i : served) {
            sandboxAccess.set(i, new RepositoryAccess(access.get(i).cloneUrl(), Optional.empty()));
            env.put("GIT_CONFIG_KEY_" + k, "url." + extUrl(registration.client(), i) + ".insteadOf");
            env.put("GIT_CONFIG_VALUE_" + k++, access.get(i).cloneUrl());
        }
        // Only URLs the user (or the factory) names may use ext::, never a submodule's.
        env.put("GIT_CONFIG_KEY_" + k, "protocol.ext.allow");
        env.put("GIT_CONFIG_VALUE_" + k++, "user");
        env.put("GIT_CONFIG_COUNT", Integer.toString(k));
        return new GitRoute(env, sandboxAccess);
    }

    /** The failure of a session whose sandbox cannot reach the gateway, {@code why} saying what is missing. */
    public static SandboxException unavailable(String sessionId, RepositoryAccess repository, String why) {
        return new SandboxException(StandardErrorCode.GATEWAY_UNAVAILABLE, "Repository " + repository.cloneUrl() + " of session '"
                + sessionId + "' needs a token, but " + why + "; set repository.exposeToken: true to give the sandbox the token"
                + " instead (unsafe with untrusted code).");
    }

    /** Gives the gateway a new token for session {@code sessionId}'s repositories; false when it does not serve the session. */
    public boolean refreshToken(String sessionId, String token) {
        ServedSession registration = sessions.get(sessionId);
        if (registration == null) {
            return false;
        }
        registration.refresh(token);
        return true;
    }

    /**
     * Revokes session {@code sessionId}'s capability: its channel stops (a connection in progress is
     * cut); with {@code removeDirectory} (the session is destroyed) its directory goes too.
     */
    public void revoke(String sessionId, boolean removeDirectory) {
        ServedSession registration = sessions.remove(sessionId);
        if (registration != null) {
            registration.close();
        }
        if (removeDirectory) {
            try {
                HostChannel.remove(channelDirectory(sessionId));
            } catch (IOException e) {
                LOG.debug("The Git gateway's directory of session '{}' could not be removed: {}", sessionId, e.toString());
            }
        }
    }

    @Override
    public void close() {
        for (String id : List.copyOf(sessions.keySet())) {
            revoke(id, false);
        }
        mirrors.killAll();
        services.close();
    }

    private ServedSession open(String sessionId, String branch, List<RepositoryAccess> access, Object sandbox, CommandExecutor exec) {
        try {
            GatewayHooks.write(hooks);
        } catch (IOException e) {
            throw new SandboxException(StandardErrorCode.GATEWAY_UNAVAILABLE, "The Git gateway could not serve session '" + sessionId
                    + "': " + e.getMessage());
        }
        Path directory = channelDirectory(sessionId);
        ServedSession served = new ServedSession(new PushRule(branch, pushNamespace), access, mirrors, services, hooks);
        try {
            served.serveOn(SessionChannels.open(hostDirectories ? Optional.of(directory) : Optional.empty(),
                    directory.getFileName().toString(), sandbox, exec, served::serve));
        } catch (SessionChannels.UnavailableException e) {
            throw unavailable(sessionId, access.get(0), e.getMessage());
        }
        return served;
    }

    private Path channelDirectory(String sessionId) {
        return HostChannel.directoryFor(stateDirectory, "git", sessionId);
    }

    /** git's ext transport running the channel's client; spaces and '%' escaped as ext wants. */
    static String extUrl(String client, int repository) {
        String script = client.replace("%", "%%").replace(" ", "% ");
        return "ext::sh " + script + " git %S " + repository;
    }
}
