package io.sandboxfactory.core.internal.gateway;

import io.sandboxfactory.api.host.RepositoryAccess;
import io.sandboxfactory.api.support.Sandboxes;
import io.sandboxfactory.core.internal.git.GitCredentials;
import io.sandboxfactory.core.internal.git.HostGit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The gateway's bare mirrors on the host, one per upstream URL, shared by the sessions that name it.
 * Before each connection the mirror is fetched from upstream with the asking session's own token
 * (host git, the token only in the environment, as {@link GitCredentials} hands it), so a session
 * whose token cannot read the repository is never served what another session fetched. The upstream
 * remote is {@code upstream} without a fetch refspec; fetches name their refspecs.
 */
final class GatewayMirrors {

    private final Path directory;
    private final HostGit git;
    private final Map<Path, ReentrantLock> locks = new ConcurrentHashMap<>();

    GatewayMirrors(Path directory, Duration timeout) {
        this.directory = directory;
        this.git = new HostGit("git gateway", timeout);
    }

    /** The mirror of {@code access}'s URL; held under its lock by the caller while git writes to it. */
    Path mirrorOf(RepositoryAccess access) {
        return directory.resolve(HostGit.key(access.cloneUrl()) + ".git");
    }

    ReentrantLock lockOf(Path mirror) {
        return locks.computeIfAbsent(mirror, m -> new ReentrantLock());
    }

    /**
     * Makes the mirror if missing and brings its branches, tags and HEAD to upstream's (fetching only
     * when the advertised refs differ from the mirror's); the caller holds its lock.
     */
    void update(Path mirror, RepositoryAccess access) throws IOException {
        Map<String, String> env = upstreamEnv(access);
        if (!Files.isDirectory(mirror)) {
            Files.createDirectories(directory);
            Path partial = mirror.resolveSibling(mirror.getFileName() + ".partial");
            git.run(directory, "rm -rf " + Sandboxes.quote(partial.toString()) + " && git init --quiet --bare " + Sandboxes.quote(partial.toString())
                    + " && git -C " + Sandboxes.quote(partial.toString()) + " config remote.upstream.url " + Sandboxes.quote(access.cloneUrl())
                    + " && git -C " + Sandboxes.quote(partial.toString()) + " config uploadpack.allowFilter true", env);
            Files.move(partial, mirror, StandardCopyOption.ATOMIC_MOVE);
        }
        // One round trip says whether anything changed upstream; the fetch (a second one) only when it did.
        String advertised = git.run(mirror, "git ls-remote --symref upstream", env);
        // The mirror's HEAD (first line) and refs, read in one process: this runs before every connection.
        String held = git.run(mirror, "git symbolic-ref -q HEAD; git for-each-ref --format='%(objectname) %(refname)' refs/heads refs/tags",
                Map.of());
        if (!refs(advertised).equals(refs(held))) {
            git.run(mirror, "git fetch --quiet --prune --no-tags upstream"
                    + " '+refs/heads/*:refs/heads/*' '+refs/tags/*:refs/tags/*'", env);
        }
        Optional<String> head = headRef(advertised);
        if (head.isPresent() && !held.startsWith(head.get() + "\n")) {
            git.run(mirror, "git symbolic-ref HEAD " + Sandboxes.quote(head.get()), Map.of());
        }
    }

    /** The branches and tags of an {@code ls-remote} or {@code for-each-ref} listing ({@code <id> <ref>}), peeled tags left out. */
    static Set<String> refs(String listing) {
        Set<String> refs = new TreeSet<>();
        for (String line : listing.split("\n")) {
            String[] parts = line.strip().split("\\s+");
            if (parts.length == 2 && parts[0].matches("[0-9a-f]{40,64}") && (parts[1].startsWith("refs/heads/")
                    || parts[1].startsWith("refs/tags/") && !parts[1].endsWith("^{}"))) {
                refs.add(parts[0] + " " + parts[1]);
            }
        }
        return refs;
    }

    /**
     * The environment of host git talking to upstream (and of the pre-receive hook's push): the token
     * and its scoped helper as {@code GIT_CONFIG_*} variables, no prompts, PATH and HOME.
     */
    Map<String, String> upstreamEnv(RepositoryAccess access) {
        Map<String, String> env = new LinkedHashMap<>(GitCredentials.of(access).overlayEnv());
        env.put("GIT_TERMINAL_PROMPT", "0");
        env.put("GCM_INTERACTIVE", "never");
        return env;
    }

    /** The branch {@code ls-remote --symref upstream HEAD} names, if any. */
    static Optional<String> headRef(String lsRemote) {
        for (String line : lsRemote.split("\n")) {
            if (line.startsWith("ref: ") && line.endsWith("\tHEAD")) {
                String ref = line.substring(5, line.length() - 5).trim();
                if (ref.startsWith("refs/heads/")) {
                    return Optional.of(ref);
                }
            }
        }
        return Optional.empty();
    }

    /** Kills host git still running for the gateway. */
    void killAll() {
        git.killAll();
    }
}
