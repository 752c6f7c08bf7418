package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.MastraSandbox;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What this process holds for one session: its sandbox instance, the working directory once
 * resolved, the session's own repository and the repositories materialized in the sandbox, plus
 * the session machinery's plan and the generation the instance was made in.
 *
 * <p>Thread-safe. The working directory and the own repository are set at most once (the first
 * value wins and is returned to every later caller), because concurrent resolvers of the same
 * session must all agree on one answer.
 */
public final class SessionEntry {

    private final String sessionId;
    private final MastraSandbox<?> sandbox;
    private final AtomicReference<String> workdir = new AtomicReference<>();
    private final AtomicReference<String> ownRepo = new AtomicReference<>();
    private final Set<String> repos = ConcurrentHashMap.newKeySet();
    private final AtomicReference<SessionPlan> plan = new AtomicReference<>();
    private final AtomicLong generation = new AtomicLong(UNBOUND);
    /** Starts the session hook began on this instance; {@link #CONDEMNED} once a revival replaced it. */
    private final AtomicLong starts = new AtomicLong();
    /** The template this entry's sandbox was made from, once a start used one. */
    private final AtomicReference<String> template = new AtomicReference<>();

    private static final long UNBOUND = Long.MIN_VALUE;
    private static final long CONDEMNED = -1;

    SessionEntry(String sessionId, MastraSandbox<?> sandbox) {
        this.sessionId = Objects.requireNonNull(sessionId, "sessionId");
        this.sandbox = Objects.requireNonNull(sandbox, "sandbox");
    }

    public String sessionId() {
        return sessionId;
    }

    /** The session's sandbox; the same instance for the whole life of the entry. */
    public MastraSandbox<?> sandbox() {
        return sandbox;
    }

    /** The working directory inside the sandbox, once resolved. */
    public Optional<String> workdir() {
        return Optional.ofNullable(workdir.get());
    }

    /** Records {@code resolved} unless a working directory is already recorded; returns the one in effect. */
    public String resolveWorkdir(String resolved) {
        Objects.requireNonNull(resolved, "resolved");
        return workdir.compareAndSet(null, resolved) ? resolved : workdir.get();
    }

    /** The repository this session was opened for, once known. */
    public Optional<String> ownRepo() {
        return Optional.ofNullable(ownRepo.get());
    }

    /** Records the session's own repository unless one is recorded; returns the one in effect. */
    public String claimOwnRepo(String repo) {
        Objects.requireNonNull(repo, "repo");
        return ownRepo.compareAndSet(null, repo) ? repo : ownRepo.get();
    }

    /** A snapshot of the repositories materialized in this sandbox. */
    public Set<String> repos() {
        return Set.copyOf(repos);
    }

    /** Records that {@code repo} is materialized in this sandbox; false when it already was. */
    public boolean addRepo(String repo) {
        return repos.add(Objects.requireNonNull(repo, "repo"));
    }

    /** What the session machinery last opened this session with; applies from the next start. */
    /** The name of the template the sandbox was made from, when a start of this entry used one. */
    public Optional<String> template() {
        return Optional.ofNullable(template.get());
    }

    public void usedTemplate(String name) {
        template.set(name);
    }

    public Optional<SessionPlan> plan() {
        return Optional.ofNullable(plan.get());
    }

    /** Where the session's files are rooted ({@link SessionPlan#filesRoot}), once the workdir is resolved. */
    public Optional<String> filesRoot() {
        return workdir().flatMap(root -> plan().map(p -> p.filesRoot(p.layout(root))));
    }

    /** Replaces the plan (the latest open wins). */
    public void plan(SessionPlan plan) {
        this.plan.set(Objects.requireNonNull(plan, "plan"));
    }

    /**
     * Binds the session generation this sandbox instance was made in, unless one is bound; returns
     * the one in effect. A later retirement (here or in another process) makes the instance stale.
     */
    public long claimGeneration(long value) {
        return generation.compareAndSet(UNBOUND, value) ? value : generation.get();
    }

    /**
     * Whether a retirement came after this instance was made, given the session's current
     * generation; an instance with no generation bound (made outside the session machinery) never is.
     */
    boolean retiredSince(long current) {
        long bound = generation.get();
        return bound != UNBOUND && bound != current;
    }

    /** How many starts of this instance the session hook has begun (negative once condemned). */
    long starts() {
        return starts.get();
    }

    /**
     * Counts a start of this instance as it begins; false when a revival condemned the instance,
     * which must then never start again (a fresh instance holds the session's files).
     */
    boolean admitStart() {
        while (true) {
            long seen = starts.get();
            if (seen == CONDEMNED) {
                return false;
            }
            if (starts.compareAndSet(seen, seen + 1)) {
                return true;
            }
        }
    }

    /**
     * Condemns this instance unless a start began since the caller saw {@code seen} starts (another
     * caller revived it in place); true when condemned. Either it or {@link #admitStart} wins, never both.
     */
    boolean condemn(long seen) {
        return starts.compareAndSet(seen, CONDEMNED) || starts.get() == CONDEMNED;
    }

    @Override
    public String toString() {
        return "SessionEntry[sessionId=" + sessionId + ", sandbox=" + sandbox + ", workdir=" + workdir.get() + "]";
    }
}
