package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.SandboxNotReadyException;
import io.sandboxfactory.api.SandboxStatus;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.internal.git.GitCredentials;
import io.sandboxfactory.core.internal.git.ObjectCache;
import io.sandboxfactory.core.internal.store.SessionLeases;
import io.sandboxfactory.core.internal.template.AutoBuilds;
import io.sandboxfactory.core.internal.template.TemplateKey;
import io.sandboxfactory.core.internal.template.TemplateSelector;
import io.sandboxfactory.core.internal.template.TemplateSettings;
import io.sandboxfactory.core.internal.template.TemplateUse;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionPhase;
import io.sandboxfactory.core.session.SessionRetiredException;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.session.StartMode;
import io.sandboxfactory.store.api.SessionRecord;
import io.sandboxfactory.core.template.TemplateRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.WeakHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Opens sessions (design §5): validates and registers the spec, gets or creates the session's
 * sandbox through the memo and the provider, attaches the {@link SessionStartHook} exactly once
 * per sandbox instance (inside the memo's at-most-once construction), and starts it according to
 * the {@link StartMode}. Eager and background starts hold the session's lease around the whole
 * start, so across processes sharing a store only one of them provisions the sandbox and runs the
 * setup; the hook holds it too, which covers lazy starts. An open that a retirement overtakes
 * fails with {@link SessionRetiredException} instead of returning a live sandbox. Handles it returns
 * revive a dead sandbox through this opener (see {@link SessionHandle#executeCommand}).
 *
 * <p>Every eager or background open prepares the workspace, as in a fresh process: when the
 * sandbox already runs here, the hook prepares it again for this open's plan (fetch, branch,
 * setup gates) unless the start this open joined just did so for that very plan.
 */
public final class SessionOpener implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SessionOpener.class);

    private final String providerName;
    private final FactorySandbox provider;
    private final SessionMemo memo;
    private final SessionServices services;
    private final ExecutorService background;
    private final SessionRevival revival;
    private final GuardedStart starts;
    /** The session hook of each sandbox instance that carries one (identity; weak, so evicted instances go away). */
    private final Map<MastraSandbox<?>, SessionStartHook> hooks = Collections.synchronizedMap(new WeakHashMap<>());
    /** The template each sandbox instance was made with, when it was (identity; weak like the hooks). */
    private final Map<MastraSandbox<?>, TemplateUse> templated = Collections.synchronizedMap(new WeakHashMap<>());
    private final TemplateSettings templates;
    private final TemplateSelector selector;
    /** Where {@code templates.autoBuild} sends builds (looked up when needed: the builds open sessions through this opener). */
    private final Supplier<AutoBuilds> autoBuilds;
    /** The host's git object cache, when the provider's sandboxes see the host's files. */
    private final Optional<ObjectCache> objectCache;

    /** Without templates, object cache or automatic template builds. */
    public SessionOpener(String providerName, FactorySandbox provider, SessionMemo memo, SessionServices services) {
        this(providerName, provider, memo, services, TemplateSettings.disabled(), Optional.empty(), noAutoBuilds());
    }

    /**
     * @param providerName the name the provider was selected by ({@code SandboxProvider.name()})
     * @param objectCache the cache clones of new checkouts borrow objects from (the provider's sandboxes must see the host's files)
     * @param autoBuilds where an eager open whose setup is done and that no template matches asks for one ({@code templates.autoBuild})
     */
    public SessionOpener(String providerName, FactorySandbox provider, SessionMemo memo, SessionServices services,
                         TemplateSettings templates, Optional<ObjectCache> objectCache, Supplier<AutoBuilds> autoBuilds) {
        this.providerName = Objects.requireNonNull(providerName, "providerName");
        this.objectCache = Objects.requireNonNull(objectCache, "objectCache");
        this.autoBuilds = Objects.requireNonNull(autoBuilds, "autoBuilds");
        this.templates = Objects.requireNonNull(templates, "templates");
        this.selector = new TemplateSelector(providerName, provider);
        this.provider = Objects.requireNonNull(provider, "provider");
        this.memo = Objects.requireNonNull(memo, "memo");
        this.services = Objects.requireNonNull(services, "services");
        this.background = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "session-background-start");
            t.setDaemon(true);
            return t;
        });
        this.revival = new SessionRevival(memo, services, spec -> open(spec, spec.useTemplates()));
        this.starts = new GuardedStart(services, this::withoutTemplate);
    }

    private static Supplier<AutoBuilds> noAutoBuilds() {
        AutoBuilds none = AutoBuilds.disabled();
        return () -> none;
    }

    /** Opens {@code spec}'s session and starts it as its start mode says. */
    public SessionHandle open(SessionSpec spec) {
        return open(spec, spec.useTemplates());
    }

    private OpenSessionHandle open(SessionSpec spec, boolean mayUseTemplate) {
        Objects.requireNonNull(spec, "spec");
        String id = spec.sessionId();
        Optional<SessionRecord> existing = services.store().find(id);
        SessionPlan plan = SessionPlan.of(spec, services.defaults())
                .withStoredBase(existing.flatMap(record -> record.definition().baseBranch()));
        existing.ifPresent(record -> requireSameRepository(record, plan));
        services.store().register(plan.definition(Optional.of(providerName)));

        long generation = services.store().generation(id);
        SessionEntry entry = currentEntry(spec, plan, generation, existing, mayUseTemplate);
        entry.plan(plan);
        entry.claimOwnRepo(plan.repositories().get(0).repository());
        plan.repositories().forEach(r -> entry.addRepo(r.repository()));
        revival.remember(entry, spec, generation);
        OpenSessionHandle handle = new OpenSessionHandle(entry, spec.startMode(), revival, starts, services.activity(), services.journal());

        switch (spec.startMode()) {
            case EAGER -> {
                try {
                    prepareHoldingLease(entry, plan);
                } catch (RuntimeException e) {
                    // The open without the template is a whole open of its own (auto-build included); this handle follows it.
                    withoutTemplate(entry, e).orElseThrow(() -> e);
                    return handle;
                }
                if (services.store().generation(id) != generation) {
                    throw new SessionRetiredException(id);
                }
                requestTemplate(autoBuilds.get(), entry, spec, plan);
            }
            case BACKGROUND -> background.execute(() -> {
                try {
                    prepareHoldingLease(entry, plan);
                } catch (RuntimeException e) {
                    try {
                        if (withoutTemplate(entry, e).isPresent()) {
                            return;
                        }
                    } catch (RuntimeException again) {
                        LOG.warn("Background start of session '{}' without its template failed: {}", id, again.getMessage());
                        return;
                    }
                    LOG.warn("Background start of session '{}' failed: {}", id, e.getMessage());
                }
            });
            case LAZY -> { }
        }
        return handle;
    }

    /** The open session {@code sessionId} if this process holds it; never constructs or starts anything. */
    public Optional<SessionHandle> session(String sessionId) {
        return memo.peek(sessionId).map(entry -> (SessionHandle) new OpenSessionHandle(entry, StartMode.LAZY, revival, starts, services.activity(), services.journal()));
    }

    /**
     * Replaces the repository token in the session's environment overlay, so later commands (a
     * {@code git fetch} or {@code push} in the sandbox) use it. The session must be open here.
     */
    public void refreshToken(String sessionId, String token) {
        Objects.requireNonNull(token, "token");
        if (token.isBlank()) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "The new token for session '" + sessionId + "' is blank; pass a real token.");
        }
        SessionEntry entry = memo.peek(sessionId).orElseThrow(() -> new SandboxException(StandardErrorCode.SESSION_NOT_OPEN,
                "Session '" + sessionId + "' is not open in this factory; open it before refreshing its token."));
        entry.sandbox().setEnv(env -> {
            env.put(GitCredentials.TOKEN_VARIABLE, token);
            return env;
        });
    }

    /**
     * The sandbox was just made from {@code use}'s template and the start failed because of it: the
     * template does not fit or could not be started. A sandbox the hook found made from a template
     * that does not fit holds nothing of the session's, so it is destroyed; when the provider failed
     * before the hook, nothing is destroyed (it may have been an existing sandbox that failed to
     * connect: the next start meets it again). Either way the open begins again without a template.
     */
    private void skipTemplate(SessionEntry entry, TemplateUse use, RuntimeException failure) {
        String id = entry.sessionId();
        LOG.warn("Session '{}': template {} could not be used, so the sandbox is made without it: {}", id, use.template().name(),
                failure.getMessage());
        services.phase(id, SessionPhase.TEMPLATE_SKIPPED, use.template().name() + ": " + failure.getMessage());
        if (use.rejected(failure)) {
            try {
                entry.sandbox().destroy();
            } catch (RuntimeException e) {
                LOG.warn("Session '{}': removing what template {} made failed: {}", id, use.template().name(), e.getMessage());
            }
        } else {
            try {
                entry.sandbox().stop();
            } catch (RuntimeException e) {
                LOG.debug("Session '{}': releasing the instance that failed with template {}: {}", id, use.template().name(), e.getMessage());
            }
        }
        memo.evict(id, entry);
    }

    /**
     * When {@code failure} of {@code entry}'s start is its template's fault, skips the template and
     * opens the session again without one, eagerly (whatever the start mode: this start was asked
     * for), and makes every handle on {@code entry} follow the new entry; empty otherwise. Callers
     * that met the same failure at once (a background start and a lazy handle's command) get the
     * one replacement.
     */
    private Optional<SessionEntry> withoutTemplate(SessionEntry entry, RuntimeException failure) {
        synchronized (entry) {
            SessionEntry followed = revival.follow(entry);
            if (followed != entry) {
                return Optional.of(followed);
            }
            TemplateUse use = templated.get(entry.sandbox());
            Optional<SessionSpec> spec = revival.eagerSpecOf(entry);
            if (use == null || spec.isEmpty() || !use.isTemplateFailure(failure)) {
                return Optional.empty();
            }
            // From now on the old instance never starts again: another thread retrying it would prepare
            // the session's directory beside the new instance.
            while (!entry.condemn(entry.starts())) {
                Thread.onSpinWait();
            }
            Optional.ofNullable(hooks.get(entry.sandbox())).ifPresent(SessionStartHook::refuseStarts);
            skipTemplate(entry, use, failure);
            SessionEntry fresh = open(spec.get(), false).entry();
            revival.replaced(entry, fresh);
            return Optional.of(fresh);
        }
    }

    private void requestTemplate(AutoBuilds builds, SessionEntry entry, SessionSpec spec, SessionPlan plan) {
        if (!builds.enabled() || !spec.useTemplates() || entry.template().isPresent() || !selector.supported()) {
            return;
        }
        if (plan.repositories().stream().allMatch(r -> r.setup().isEmpty()) && plan.workspaceSetup().isEmpty()) {
            return; // nothing a template would save but the clone
        }
        TemplateKey key = TemplateKey.of(providerName, plan);
        if (selector.newest(key).isEmpty()) {
            SessionPlan.Repository own = plan.repositories().get(0);
            TemplateRequest request = spec.environment().map(env -> {
                TemplateRequest of = TemplateRequest.of(env);
                return spec.baseBranch().map(of::withBase).orElse(of);
            }).orElseGet(() -> new TemplateRequest(own.repository(), Optional.of(own.setup().commands()), own.baseBranch()));
            builds.request(key, request);
        }
    }

    private Optional<TemplateUse> chooseTemplate(SessionSpec spec, SessionPlan plan, boolean mayUseTemplate) {
        if (!mayUseTemplate || !templates.enabled()) {
            return Optional.empty();
        }
        TemplateKey key = TemplateKey.of(providerName, plan);
        return selector.newest(key).map(template -> new TemplateUse(template, templates.inputs()));
    }

    private SessionEntry currentEntry(SessionSpec spec, SessionPlan plan, long generation, Optional<SessionRecord> record,
                                      boolean mayUseTemplate) {
        while (true) {
            SessionEntry entry = memo.getOrCreate(spec.sessionId(), () -> createSandbox(spec, plan, generation, record, mayUseTemplate));
            if (entry.sandbox().status() == SandboxStatus.DESTROYED) {
                // Destroyed behind the memo's back (not through a retirement): a destroyed instance is final.
                memo.evict(spec.sessionId());
                continue;
            }
            if (attachHookOnce(entry.sandbox(), spec, plan, generation, Optional.empty()) && entry.sandbox().status() != SandboxStatus.PENDING) {
                // Made through SandboxFactory.sandbox(ctx) and started without the session hook.
                LOG.warn("Session '{}' holds a sandbox that was started without the session hook; the workspace is"
                        + " prepared at its next start.", spec.sessionId());
            }
            long bound = entry.claimGeneration(generation);
            if (bound == generation) {
                return entry;
            }
            // The session was retired (here or in another process) since this instance was made.
            LOG.info("Session '{}' was retired since its sandbox instance was made; making a new one.", spec.sessionId());
            memo.evict(spec.sessionId());
        }
    }

    private MastraSandbox<?> createSandbox(SessionSpec spec, SessionPlan plan, long generation, Optional<SessionRecord> record,
                                           boolean mayUseTemplate) {
        FactorySandboxContext.Builder ctx = FactorySandboxContext.builder(spec.sessionId())
                .repoFullName(plan.repositories().get(0).repository())
                .repositoryAccess(plan.repositories().get(0).access())
                .resources(spec.resources());
        record.flatMap(SessionRecord::sandboxId).ifPresent(ctx::sandboxId);
        if (!plan.repositories().get(0).setup().isEmpty()) {
            ctx.setupCommand(plan.repositories().get(0).setup().text());
        }
        spec.workingDirectory().ifPresent(ctx::workingDirectory);
        ctx.hostDirectories(hostDirectories(plan));
        Optional<TemplateUse> template = chooseTemplate(spec, plan, mayUseTemplate);
        template.ifPresent(use -> ctx.template(use.template()));
        MastraSandbox<?> sandbox = provider.create(ctx.build());
        if (sandbox == null || !spec.sessionId().equals(sandbox.id())) {
            throw new SandboxException(StandardErrorCode.PROVIDER_CONTRACT, "Sandbox provider '" + providerName + "' returned "
                    + (sandbox == null ? "no sandbox" : "a sandbox with id '" + sandbox.id() + "'") + " for session '"
                    + spec.sessionId() + "'; it must return one whose id is the session id.");
        }
        template.ifPresent(use -> templated.put(sandbox, use));
        attachHookOnce(sandbox, spec, plan, generation, template);
        return sandbox;
    }

    /**
     * The host directories a new sandbox must see read-only: the git object cache, and every
     * repository of the session given as a local path or {@code file://} URL (an isolated sandbox
     * sees nothing of the host it is not given, and must still clone them).
     */
    private List<String> hostDirectories(SessionPlan plan) {
        List<String> directories = new ArrayList<>();
        objectCache.ifPresent(cache -> directories.add(cache.directory()));
        for (SessionPlan.Repository repository : plan.repositories()) {
            services.defaults().locator().localHostPath(repository.repository()).map(Path::toString)
                    .filter(path -> !directories.contains(path)).ifPresent(directories::add);
        }
        return directories;
    }

    /** Attaches the session hook unless this sandbox instance has it already; true when it attached now. */
    private boolean attachHookOnce(MastraSandbox<?> sandbox, SessionSpec spec, SessionPlan plan, long generation,
                                   Optional<TemplateUse> template) {
        synchronized (hooks) {
            if (hooks.containsKey(sandbox)) {
                return false;
            }
            SessionStartHook hook = new SessionStartHook(providerName, plan, services, generation,
                    () -> memo.peek(spec.sessionId()).filter(e -> e.sandbox() == sandbox), spec.workingDirectory(), template,
                    objectCache);
            hooks.put(sandbox, hook);
            hook.attachTo(sandbox);
            return true;
        }
    }

    private void prepareHoldingLease(SessionEntry entry, SessionPlan plan) {
        String id = entry.sessionId();
        try (SessionLeases.Lease lease = services.leases().acquire(id,
                attempt -> services.phase(id, SessionPhase.WAITING_FOR_LEASE, "held by " + attempt.holder()),
                () -> {
                    // A retirement evicted this entry while we waited: starting it would revive a retired sandbox.
                    if (memo.peek(id).filter(current -> current == entry).isEmpty()) {
                        throw new SessionRetiredException(id);
                    }
                })) {
            services.phase(id, SessionPhase.START, providerName);
            starts.startHoldingLease(entry);
            SessionStartHook hook = hooks.get(entry.sandbox());
            if (hook != null && !hook.preparedFor(plan)) {
                try {
                    hook.prepareRunning(plan, entry.sandbox());
                } catch (SandboxNotReadyException | SandboxDestroyedException stopped) {
                    // Stopped or found gone meanwhile: its start prepares it (a fresh one if gone), with this open's plan.
                    starts.startHoldingLease(entry);
                }
            }
        }
    }

    private static void requireSameRepository(SessionRecord record, SessionPlan plan) {
        String stored = record.definition().repository();
        String requested = plan.repositories().get(0).repository();
        if (!stored.equals(requested)) {
            throw new InvalidInputException(StandardErrorCode.INVALID_REPOSITORY, "Session '" + record.sessionId() + "' works on repository '" + stored
                    + "', so it cannot be reopened on '" + requested + "'; retire it with DESTROY first, or use another session id.");
        }
    }

    /** Stops background starts that have not begun; running ones finish. */
    @Override
    public void close() {
        background.shutdown();
    }
}
