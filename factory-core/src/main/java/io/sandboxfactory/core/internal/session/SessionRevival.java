package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.core.session.SessionPhase;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.session.StartMode;
import jakarta.inject.Inject;
import jakarta.inject.Provider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.WeakHashMap;

/**
 * Replaces a session's dead sandbox instance with a fresh one, started through the normal open
 * path (session hook: materialize, branch, setup gate), so that a command that failed because its
 * sandbox is gone can be replayed once.
 *
 * <p>Guarantees: at most one fresh instance per dead one, however many callers find it dead at
 * once (they serialize on the dead entry, and the later ones get the fresh entry). A session that
 * was retired — here (its entry left the memo) or in another process (its generation moved) — is
 * never revived: the caller gets the original failure back. Nothing is destroyed: the dead instance
 * is only dropped from the memo, and stopped when the provider reported it destroyed, to release
 * what the instance still holds on the host.
 */
final class SessionRevival {

    private static final Logger LOG = LoggerFactory.getLogger(SessionRevival.class);

    /** How an entry was last opened: what a fresh instance is opened with. */
    private record Opened(SessionSpec spec, long generation) {
    }

    private final SessionMemo memo;
    private final SessionServices services;
    /** Looked up when needed: the pipeline's handles revive through this. */
    private final Provider<OpenPipeline> pipeline;
    /** Keyed by entry identity; weak, so evicted entries go away. */
    private final Map<SessionEntry, Opened> opened = Collections.synchronizedMap(new WeakHashMap<>());
    /** Dead entry → the fresh entry that replaced it, so every handle on a dead entry moves on. */
    private final Map<SessionEntry, SessionEntry> replacements = Collections.synchronizedMap(new WeakHashMap<>());

    @Inject
    SessionRevival(SessionMemo memo, SessionServices services, Provider<OpenPipeline> pipeline) {
        this.memo = Objects.requireNonNull(memo, "memo");
        this.services = Objects.requireNonNull(services, "services");
        this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
    }

    /** Records that {@code entry} was opened with {@code spec} in session generation {@code generation}. */
    void remember(SessionEntry entry, SessionSpec spec, long generation) {
        opened.put(entry, new Opened(spec, generation));
    }

    /** The spec {@code entry} was last opened with, as an eager open (what a replacement of it is opened with). */
    Optional<SessionSpec> eagerSpecOf(SessionEntry entry) {
        return Optional.ofNullable(opened.get(entry)).map(how -> eager(how.spec()));
    }

    /** From now on handles on {@code old} work on {@code replacement}. */
    void replaced(SessionEntry old, SessionEntry replacement) {
        replacements.put(old, replacement);
    }

    /** {@code entry}, or the entry that replaced it after it was found dead (followed to the latest). */
    SessionEntry follow(SessionEntry entry) {
        SessionEntry current = entry;
        for (SessionEntry next = replacements.get(current); next != null; next = replacements.get(current)) {
            current = next;
        }
        return current;
    }

    /**
     * The live entry to replay a command on, in place of {@code dead}: the one another caller made
     * meanwhile, {@code dead} itself when another caller restarted it since this one saw {@code
     * startsSeen} starts of it, or a fresh one started now (from then on {@code dead} refuses to
     * start, so two instances never prepare the session's files at once). Throws {@code failure}
     * when the session may not be revived, and a start failure (with {@code failure} suppressed)
     * when the fresh start fails.
     */
    SessionEntry revive(SessionEntry dead, long startsSeen, RuntimeException failure) {
        String id = dead.sessionId();
        synchronized (dead) {
            Optional<SessionEntry> current = memo.peek(id);
            if (current.isPresent() && current.get() != dead) {
                return current.get();
            }
            Opened how = opened.get(dead);
            if (current.isEmpty() || how == null || services.store().generation(id) != how.generation()) {
                throw failure;
            }
            if (!dead.condemn(startsSeen)) {
                return dead;
            }
            if (!memo.evict(id, dead)) {
                return memo.peek(id).orElseThrow(() -> failure);
            }
            LOG.warn("The sandbox of session '{}' is gone ({}); starting a fresh one and replaying the command once.", id,
                    failure.getMessage());
            services.phase(id, SessionPhase.REVIVE, String.valueOf(failure.getMessage()));
            if (DeadSandboxes.isDestroyed(failure)) {
                release(dead.sandbox());
            }
            try {
                SessionSpec spec = eager(how.spec());
                SessionEntry fresh = pipeline.get().open(spec, spec.useTemplates()).entry();
                replacements.put(dead, fresh);
                return fresh;
            } catch (RuntimeException startFailure) {
                startFailure.addSuppressed(failure);
                throw startFailure;
            }
        }
    }

    private static void release(MastraSandbox<?> sandbox) {
        try {
            sandbox.stop();
        } catch (RuntimeException e) {
            LOG.debug("Stopping the dead sandbox instance '{}' failed: {}", sandbox.id(), e.getMessage());
        }
    }

    private static SessionSpec eager(SessionSpec spec) {
        return new SessionSpec(spec.sessionId(), spec.repository(), spec.branch(), spec.baseBranch(), spec.setupCommands(),
                spec.teardownCommands(), spec.environment(), StartMode.EAGER, spec.repositoryAccess(), spec.setupTimeout(),
                spec.resources(), spec.workingDirectory(), spec.labels(), spec.useTemplates(), spec.ephemeralOwner(), spec.setupSecrets(),
                spec.egressAllow());
    }
}
