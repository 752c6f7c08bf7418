package io.sandboxfactory.core;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.capability.SandboxListing;
import io.sandboxfactory.api.capability.SandboxTemplate;
import io.sandboxfactory.core.config.EnvironmentConfig;
import io.sandboxfactory.core.internal.config.ResolvedConfig;
import io.sandboxfactory.core.internal.git.ObjectCache;
import io.sandboxfactory.core.internal.retire.OrphanSweeper;
import io.sandboxfactory.core.internal.retire.Retirements;
import io.sandboxfactory.core.internal.retire.SessionRetirementCoordinator;
import io.sandboxfactory.core.internal.session.CommandActivity;
import io.sandboxfactory.core.internal.session.SessionOpener;
import io.sandboxfactory.core.internal.session.SessionProvider;
import io.sandboxfactory.core.internal.template.TemplateBuilder;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.retire.RetireResult;
import io.sandboxfactory.core.retire.SessionSelector;
import io.sandboxfactory.core.session.SessionEnvironment;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionRetiredException;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.template.TemplateRequest;
import io.sandboxfactory.store.api.FencedOutException;
import io.sandboxfactory.store.api.SessionRecord;
import io.sandboxfactory.store.api.SessionStore;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The session machinery of one {@link SandboxFactory}: store, opener, retirements, templates and
 * the object cache, all owned by that factory and made by its {@link io.sandboxfactory.core.internal.wiring.SessionModule}
 * (which also closes them, through the factory's {@link io.sandboxfactory.core.internal.wiring.OwnedResources}).
 */
final class FactorySessions {

    private final SessionStore store;
    private final CommandActivity activity;
    private final SessionOpener opener;
    private final SessionRetirementCoordinator coordinator;
    private final Retirements retirements;
    private final TemplateBuilder templates;
    private final OrphanSweeper sweeper;
    private final Optional<ObjectCache> objectCache;
    private final Duration cacheMaxIdle;
    private final Map<String, EnvironmentConfig> environments;
    private final SessionProvider provider;

    @Inject
    FactorySessions(SessionStore store, CommandActivity activity, SessionOpener opener, SessionRetirementCoordinator coordinator,
                    Retirements retirements, TemplateBuilder templates, OrphanSweeper sweeper, Optional<ObjectCache> objectCache,
                    ResolvedConfig config, SessionProvider provider) {
        this.provider = provider;
        this.store = store;
        this.activity = activity;
        this.opener = opener;
        this.coordinator = coordinator;
        this.retirements = retirements;
        this.templates = templates;
        this.sweeper = sweeper;
        this.objectCache = objectCache;
        this.cacheMaxIdle = config.cache().maxIdle();
        this.environments = config.environments();
    }

    /**
     * Opens {@code spec}'s session. An open that fails leaves nothing behind: the first open of a
     * session is undone (its sandbox destroyed, its record deleted), and a reopen leaves the
     * session's definition as it was. Never when the session is someone else's by then: a host that
     * took its lease over ({@link FencedOutException}) or a retirement that overtook the open.
     */
    SessionHandle open(SessionSpec spec) {
        Optional<SessionRecord> before = store.find(spec.sessionId());
        try {
            return opener.open(spec);
        } catch (RuntimeException failure) {
            if (!(failure instanceof FencedOutException) && !(failure instanceof SessionRetiredException)) {
                undoFailedOpen(spec.sessionId(), before, failure);
            }
            throw failure;
        }
    }

    private void undoFailedOpen(String sessionId, Optional<SessionRecord> before, RuntimeException failure) {
        try {
            Optional<SessionRecord> now = store.find(sessionId);
            if (now.isEmpty()) {
                return;
            }
            if (before.isEmpty()) {
                List<String> problems = coordinator.retire(sessionId, true);
                if (!problems.isEmpty()) {
                    failure.addSuppressed(new IllegalStateException("What the failed open of session '" + sessionId
                            + "' made could not all be removed (factory sweep retries): " + String.join("; ", problems)));
                }
            } else if (!now.get().definition().equals(before.get().definition())) {
                store.register(before.get().definition());
            }
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    Optional<SessionHandle> session(String sessionId) {
        return opener.session(sessionId);
    }

    RetireResult retire(String sessionId, RetireMode mode) {
        return retirements.retire(sessionId, mode);
    }

    List<SessionRecord> select(SessionSelector selector) {
        return retirements.select(selector);
    }

    List<RetireResult> retireAll(SessionSelector selector, RetireMode mode, int parallelism) {
        return retirements.retireAll(selector, mode, parallelism);
    }

    List<RetireResult> retireEach(List<String> sessionIds, RetireMode mode, int parallelism) {
        return retirements.retireEach(sessionIds, mode, parallelism);
    }

    List<RetireResult> plan(SessionSelector selector) {
        return retirements.plan(selector);
    }

    List<RetireResult> planEach(List<String> sessionIds) {
        return retirements.planEach(sessionIds);
    }

    List<RetireResult> destroyAbandonedRuns() {
        return retirements.destroyAbandonedRuns();
    }

    List<RetireResult> applyIdlePolicies() {
        return retirements.applyIdlePolicies();
    }

    boolean touch(String sessionId) {
        if (store.find(sessionId).isEmpty()) {
            return false;
        }
        activity.touch(sessionId);
        return true;
    }

    void refreshToken(String sessionId, String token) {
        opener.refreshToken(sessionId, token);
    }

    Runnable onInvalidate(String sessionId, Runnable callback) {
        return coordinator.onInvalidate(sessionId, callback);
    }

    /** Removes object cache mirrors unused for {@code cache.maxIdle}; how many. */
    int pruneObjectCache() {
        return objectCache.map(cache -> cache.prune(cacheMaxIdle)).orElse(0);
    }

    SandboxTemplate buildTemplate(TemplateRequest request) {
        return templates.build(request);
    }

    /** The provider's templates, newest first; none when it does not declare {@code TEMPLATES}. */
    List<SandboxTemplate> templates() {
        if (!provider.sandboxes().capabilities().contains(SandboxCapability.TEMPLATES)) {
            return List.of();
        }
        return provider.sandboxes().listTemplates().stream().sorted(Comparator.comparing(SandboxTemplate::createdAt).reversed()).toList();
    }

    /** Removes the template {@code name} (validated first; nothing is touched for a bad name); idempotent. */
    void removeTemplate(String name) {
        SandboxTemplate.requireValidName(name);
        if (!provider.sandboxes().capabilities().contains(SandboxCapability.TEMPLATES)) {
            throw new SandboxException(StandardErrorCode.TEMPLATES_UNSUPPORTED, "Sandbox provider '" + provider.name() + "' does not support templates.");
        }
        provider.sandboxes().removeTemplate(name);
    }

    /** See {@link SandboxFactory#environment}. */
    SessionEnvironment environment(String name) {
        EnvironmentConfig configured = environments.get(name);
        if (configured == null) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Unknown environment '" + name + "'; configured: "
                    + environments.keySet().stream().sorted().toList() + ".");
        }
        return configured.toEnvironment();
    }

    /** See {@link SandboxFactory#sandbox}. */
    MastraSandbox<?> sandbox(FactorySandboxContext ctx) {
        return opener.sandbox(ctx);
    }

    SessionStore store() {
        return store;
    }

    List<SandboxListing> sweep() {
        return sweeper.sweep();
    }

    List<String> forgetUnfinishedOpens() {
        return sweeper.forgetUnfinishedOpens();
    }
}
