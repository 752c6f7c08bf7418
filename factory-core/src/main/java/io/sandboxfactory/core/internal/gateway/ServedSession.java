package io.sandboxfactory.core.internal.gateway;

import io.sandboxfactory.api.host.RepositoryAccess;
import io.sandboxfactory.core.internal.channel.SessionChannel;
import io.sandboxfactory.core.internal.git.GitCredentials;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One session the {@link GitGateway} serves: its channel, its repositories (tokens as last minted)
 * and its push rule. A connection's header is {@code git <service> <repository index>}; anything
 * else gets {@code ERR}.
 */
final class ServedSession implements AutoCloseable {

    private static final List<String> SERVICES = List.of("git-upload-pack", "git-receive-pack");

    private final PushRule rule;
    private final GatewayMirrors mirrors;
    private final GitServices services;
    private final Path hooks;
    private volatile List<RepositoryAccess> access;
    private SessionChannel channel;

    ServedSession(PushRule rule, List<RepositoryAccess> access, GatewayMirrors mirrors, GitServices services, Path hooks) {
        this.rule = rule;
        this.access = List.copyOf(access);
        this.mirrors = mirrors;
        this.services = services;
        this.hooks = hooks;
    }

    /** Serves the session on {@code channel} (opened with {@link #serve} as its handler) from now on. */
    void serveOn(SessionChannel channel) {
        this.channel = channel;
    }

    /** Whether its channel still serves the session's sandbox. */
    boolean serving() {
        return channel.serving();
    }

    /** The channel's client script, as the sandbox sees it. */
    String client() {
        return channel.client();
    }

    /** The repositories as minted by the latest open. */
    void update(List<RepositoryAccess> minted) {
        access = List.copyOf(minted);
    }

    /** A new token for the primary repository. */
    void refresh(String token) {
        List<RepositoryAccess> next = new ArrayList<>(access);
        RepositoryAccess primary = next.get(0);
        next.set(0, new RepositoryAccess(primary.cloneUrl(), primary.authorization()
                .map(auth -> new RepositoryAccess.Authorization(token, auth.username()))));
        access = List.copyOf(next);
    }

    @Override
    public void close() {
        channel.close();
    }

    /** One connection. */
    void serve(String header, InputStream in, OutputStream out) throws IOException {
        String[] words = header.split(" ");
        List<RepositoryAccess> current = access;
        if (words.length != 3 || !words[0].equals("git") || !SERVICES.contains(words[1]) || !words[2].matches("[0-9]{1,3}")
                || Integer.parseInt(words[2]) >= current.size() || !GitCredentials.of(current.get(Integer.parseInt(words[2]))).active()) {
            PktLine.error(out, "the Git gateway serves only git-upload-pack and git-receive-pack of this session's repositories");
            return;
        }
        RepositoryAccess repository = current.get(Integer.parseInt(words[2]));
        boolean push = words[1].equals("git-receive-pack");
        Path mirror = mirrors.mirrorOf(repository);
        ReentrantLock lock = mirrors.lockOf(mirror);
        lock.lock();
        try {
            try {
                mirrors.update(mirror, repository);
            } catch (IOException | RuntimeException e) {
                PktLine.error(out, "the Git gateway could not fetch " + repository.cloneUrl() + ": " + e.getMessage());
                return;
            }
            if (!push) {
                // Serving reads only: another session may update the mirror meanwhile.
                lock.unlock();
            }
            List<String> command = push
                    ? List.of("git", "-c", "core.hooksPath=" + hooks, "-c", "receive.fsckObjects=true", "receive-pack", mirror.toString())
                    : List.of("git", "upload-pack", "--strict", "--timeout=" + services.timeoutSeconds(), mirror.toString());
            Map<String, String> env = new LinkedHashMap<>();
            if (push) {
                env.putAll(mirrors.upstreamEnv(repository));
                env.putAll(rule.hookEnv());
            }
            services.run(command, mirror, env, in, out, repository);
        } finally {
            if (lock.isHeldByCurrentThread()) {
                lock.unlock();
            }
        }
    }
}
