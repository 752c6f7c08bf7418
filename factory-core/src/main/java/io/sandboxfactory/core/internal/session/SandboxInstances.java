package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.SandboxStatus;
import io.sandboxfactory.core.internal.gateway.GitGateway;
import io.sandboxfactory.core.internal.git.ObjectCache;
import io.sandboxfactory.core.internal.template.TemplateUse;
import io.sandboxfactory.store.api.SessionRecord;
import jakarta.inject.Inject;
import jakarta.inject.Provider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.WeakHashMap;

/**
 * The sandbox instance an open works on: the memo's, or a new one from the provider (made, not
 * started), with the factory's {@link SessionStartHook} attached exactly once per instance. An
 * instance destroyed behind the memo's back, or made before a retirement, is replaced.
 */
final class SandboxInstances {

    private static final Logger LOG = LoggerFactory.getLogger(SandboxInstances.class);

    private final SessionProvider provider;
    private final SessionMemo memo;
    private final SessionServices services;
    private final Optional<ObjectCache> objectCache;
    private final GitGateway gateway;
    private final EgressChannels egress;
    private final SessionTemplates templates;
    /** Looked up when a hook is made: the pipeline opens sessions through these instances. */
    private final Provider<OpenPipeline> pipeline;
    /** The hook of each sandbox instance that carries one (identity; weak, so evicted instances go away). */
    private final Map<MastraSandbox<?>, SessionStartHook> hooks = Collections.synchronizedMap(new WeakHashMap<>());

    @Inject
    SandboxInstances(SessionProvider provider, SessionMemo memo, SessionServices services, Optional<ObjectCache> objectCache,
                     GitGateway gateway, SessionTemplates templates, Provider<OpenPipeline> pipeline, EgressChannels egress) {
        this.egress = Objects.requireNonNull(egress, "egress");
        this.provider = Objects.requireNonNull(provider, "provider");
        this.memo = Objects.requireNonNull(memo, "memo");
        this.services = Objects.requireNonNull(services, "services");
        this.objectCache = Objects.requireNonNull(objectCache, "objectCache");
        this.gateway = Objects.requireNonNull(gateway, "gateway");
        this.templates = Objects.requireNonNull(templates, "templates");
        this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
    }

    /** The memo entry {@code request} opens, made for {@code generation}. */
    SessionEntry entryFor(OpenRequest request, long generation, boolean mayUseTemplate) {
        String id = request.sessionId();
        while (true) {
            SessionEntry entry = memo.getOrCreate(id, () -> create(request, generation, mayUseTemplate));
            if (entry.sandbox().status() == SandboxStatus.DESTROYED) {
                // Destroyed behind the memo's back (not through a retirement): a destroyed instance is final.
                memo.evict(id);
                continue;
            }
            if (attachHookOnce(entry.sandbox(), request, generation, Optional.empty()) && entry.sandbox().status() != SandboxStatus.PENDING) {
                // Made through SandboxFactory.sandbox(ctx) and started without the session hook.
                LOG.warn("Session '{}' holds a sandbox that was started without the session hook; the workspace is"
                        + " prepared at its next start.", id);
            }
            long bound = entry.claimGeneration(generation);
            if (bound == generation) {
                return entry;
            }
            // The session was retired (here or in another process) since this instance was made.
            LOG.info("Session '{}' was retired since its sandbox instance was made; making a new one.", id);
            memo.evict(id);
        }
    }

    /**
     * The memo's instance of {@code ctx}'s session, or a new one from the provider (made, not
     * started); one made here carries no factory hook until an open attaches it.
     */
    MastraSandbox<?> forContext(FactorySandboxContext ctx) {
        SessionEntry entry = memo.getOrCreate(ctx.sessionId(), () -> made(ctx));
        if (!ctx.repoFullName().isBlank()) {
            entry.claimOwnRepo(ctx.repoFullName());
        }
        return entry.sandbox();
    }

    /** The factory's hook on {@code sandbox}, when it carries one. */
    Optional<SessionStartHook> hookOf(MastraSandbox<?> sandbox) {
        return Optional.ofNullable(hooks.get(sandbox));
    }

    private MastraSandbox<?> create(OpenRequest request, long generation, boolean mayUseTemplate) {
        SessionPlan plan = request.plan();
        FactorySandboxContext.Builder ctx = FactorySandboxContext.builder(request.sessionId())
                .repoFullName(plan.repositories().get(0).repository())
                .repositoryAccess(plan.repositories().get(0).access())
                .resources(request.spec().resources());
        request.existing().flatMap(SessionRecord::sandboxId).ifPresent(ctx::sandboxId);
        if (!plan.repositories().get(0).setup().isEmpty()) {
            ctx.setupCommand(plan.repositories().get(0).setup().text());
        }
        request.spec().workingDirectory().ifPresent(ctx::workingDirectory);
        ctx.hostDirectories(hostDirectories(plan));
        Optional<TemplateUse> template = mayUseTemplate ? templates.choose(plan) : Optional.empty();
        template.ifPresent(use -> ctx.template(use.template()));
        MastraSandbox<?> sandbox = made(ctx.build());
        template.ifPresent(use -> templates.madeWith(sandbox, use));
        attachHookOnce(sandbox, request, generation, template);
        return sandbox;
    }

    /** A new instance from the provider, which must give it the session id as its id. */
    private MastraSandbox<?> made(FactorySandboxContext ctx) {
        MastraSandbox<?> sandbox = provider.sandboxes().create(ctx);
        if (sandbox == null || !ctx.sessionId().equals(sandbox.id())) {
            throw new SandboxException(StandardErrorCode.PROVIDER_CONTRACT, "Sandbox provider '" + provider.name() + "' returned "
                    + (sandbox == null ? "no sandbox" : "a sandbox with id '" + sandbox.id() + "'") + " for session '"
                    + ctx.sessionId() + "'; it must return one whose id is the session id.");
        }
        return sandbox;
    }

    /**
     * The host directories a new sandbox must see read-only: the git object cache, and every
     * repository of the session given as a local path or {@code file://} URL (an isolated sandbox
     * sees nothing of the host it is not given, and must still clone them), and the session's Git
     * gateway and egress channels.
     */
    private List<String> hostDirectories(SessionPlan plan) {
        List<String> directories = new ArrayList<>();
        objectCache.ifPresent(cache -> directories.add(cache.directory()));
        gateway.directoryFor(plan.sessionId()).map(Path::toString).ifPresent(directories::add);
        egress.directoryFor(plan.sessionId()).map(Path::toString).ifPresent(directories::add);
        for (SessionPlan.Repository repository : plan.repositories()) {
            services.defaults().locator().localHostPath(repository.repository()).map(Path::toString)
                    .filter(path -> !directories.contains(path)).ifPresent(directories::add);
        }
        return directories;
    }

    /** Attaches the session hook unless this sandbox instance has it already; true when it attached now. */
    private boolean attachHookOnce(MastraSandbox<?> sandbox, OpenRequest request, long generation, Optional<TemplateUse> template) {
        synchronized (hooks) {
            if (hooks.containsKey(sandbox)) {
                return false;
            }
            String id = request.sessionId();
            SessionStartHook hook = new SessionStartHook(pipeline.get(), services, request.plan(), generation,
                    () -> memo.peek(id).filter(e -> e.sandbox() == sandbox), request.spec().workingDirectory(), template);
            hooks.put(sandbox, hook);
            hook.attachTo(sandbox);
            return true;
        }
    }
}
