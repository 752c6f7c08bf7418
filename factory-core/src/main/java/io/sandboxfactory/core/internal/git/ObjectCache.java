package io.sandboxfactory.core.internal.git;

import io.sandboxfactory.api.CommandRequest;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.host.RepositoryAccess;
import io.sandboxfactory.api.support.HostCommandRunner;
import io.sandboxfactory.api.support.Sandboxes;
import io.sandboxfactory.core.config.DurationFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;

/**
 * The host Git object cache (design §5.14): one bare mirror per clone URL under {@code <state
 * dir>/git-cache/<hash>.git}, made with {@code git clone --mirror} and kept with {@code git fetch}
 * on the host, under a file lock (and a lock per mirror within this process). Opens that waited for
 * the lock while another brought the mirror up to date do not fetch again: concurrent opens cost one
 * fetch. Sandboxes that see the host's files clone with {@code --reference-if-able <mirror>
 * --dissociate}, so their checkout never depends on the cache. The token reaches the host's git the
 * same way as the sandbox's ({@link GitCredentials}: only in the environment). Any failure here only
 * means the clone goes without the cache.
 */
public final class ObjectCache {

    private static final Logger LOG = LoggerFactory.getLogger(ObjectCache.class);
    private static final String STAMP = "sandbox-factory-fetched";
    /** Enough of git's output for the end of an error message ({@link GitErrors#tail}). */

    private final Path directory;
    private final Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();
    private final HostGit git;

    public ObjectCache(Path directory, Duration timeout) {
        this.directory = directory;
        this.git = new HostGit("host git object cache", timeout);
    }

    /**
     * The directory holding the mirrors, made if missing: sandboxes that see only what is mounted
     * into them get it mounted before their first clone asks for a mirror.
     */
    public String directory() {
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            LOG.warn("The git object cache directory {} could not be made; clones go without it: {}", directory, e.getMessage());
        }
        return directory.toString();
    }

    /**
     * The mirror of {@code access}'s repository, brought up to date unless another open did so after
     * {@code asked} (when this open began its clone); empty when it could not be.
     */
    public Optional<String> referenceFor(RepositoryAccess access, Instant asked) {
        String url = access.cloneUrl();
        String key = HostGit.key(url);
        Path mirror = directory.resolve(key + ".git");
        ReentrantLock local = locks.computeIfAbsent(key, k -> new ReentrantLock());
        local.lock();
        try {
            Files.createDirectories(directory);
            try (FileChannel channel = FileChannel.open(directory.resolve(key + ".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock ignored = channel.lock()) {
                update(mirror, url, GitCredentials.of(access), asked);
            }
            return Optional.of(mirror.toString());
        } catch (IOException | RuntimeException e) {
            LOG.warn("The git object cache could not be used for {}; cloning without it: {}", url, e.getMessage());
            return Optional.empty();
        } finally {
            local.unlock();
        }
    }

    /** Removes mirrors no open used for {@code maxIdle}; returns how many. */
    public int prune(Duration maxIdle) {
        if (!Files.isDirectory(directory)) {
            return 0;
        }
        Instant cutoff = Instant.now().minus(maxIdle);
        int removed = 0;
        try (Stream<Path> children = Files.list(directory)) {
            for (Path mirror : (Iterable<Path>) children.filter(p -> p.getFileName().toString().endsWith(".git"))::iterator) {
                Path stamp = mirror.resolve(STAMP);
                if (Files.exists(stamp) && Files.getLastModifiedTime(stamp).toInstant().isBefore(cutoff)) {
                    git.run(directory, "rm -rf " + Sandboxes.quote(mirror.toString()), Map.of());
                    removed++;
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("Pruning the git object cache under {} failed: {}", directory, e.getMessage());
        }
        return removed;
    }

    private void update(Path mirror, String url, GitCredentials credentials, Instant asked) throws IOException {
        Path stamp = mirror.resolve(STAMP);
        Map<String, String> env = RepositoryMaterializer.gitEnv(credentials);
        if (Files.isRegularFile(stamp) && !Files.getLastModifiedTime(stamp).toInstant().isBefore(asked)) {
            return; // brought up to date while this open waited for the lock
        }
        if (Files.isDirectory(mirror)) {
            git.run(mirror, "git " + credentials.gitOptions() + " fetch --quiet --prune origin", env);
        } else {
            Path partial = directory.resolve(mirror.getFileName() + ".partial");
            git.run(directory, "rm -rf " + Sandboxes.quote(partial.toString()) + " && git " + credentials.gitOptions()
                    + " clone --quiet --mirror -- " + Sandboxes.quote(url) + " " + Sandboxes.quote(partial.toString()), env);
            Files.move(partial, mirror, StandardCopyOption.ATOMIC_MOVE);
        }
        Files.writeString(stamp, url + "\n", StandardCharsets.UTF_8);
        Files.setLastModifiedTime(stamp, FileTime.from(Instant.now()));
    }
}
