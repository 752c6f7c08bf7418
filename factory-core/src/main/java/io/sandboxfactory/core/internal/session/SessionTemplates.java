package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.core.internal.template.AutoBuilds;
import io.sandboxfactory.core.internal.template.TemplateKey;
import io.sandboxfactory.core.internal.template.TemplateSelector;
import io.sandboxfactory.core.internal.template.TemplateSettings;
import io.sandboxfactory.core.internal.template.TemplateUse;
import io.sandboxfactory.core.session.SessionPhase;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.template.TemplateRequest;
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
 * Templates in an open: which template a new sandbox instance is made from, the fallback to an
 * instance made without it when the template is at fault, and the request for a template that an
 * eager open whose setup is done would have used ({@code templates.autoBuild}).
 */
final class SessionTemplates {

    private static final Logger LOG = LoggerFactory.getLogger(SessionTemplates.class);

    private final SessionProvider provider;
    private final TemplateSettings settings;
    private final TemplateSelector selector;
    private final SessionMemo memo;
    private final SessionServices services;
    private final SessionRevival revival;
    /** Looked up when needed: these open sessions through the pipeline, which uses templates. */
    private final Provider<SandboxInstances> instances;
    private final Provider<OpenPipeline> pipeline;
    private final Provider<AutoBuilds> autoBuilds;
    /** The template each sandbox instance was made with, when it was (identity; weak, so evicted instances go away). */
    private final Map<MastraSandbox<?>, TemplateUse> templated = Collections.synchronizedMap(new WeakHashMap<>());

    @Inject
    SessionTemplates(SessionProvider provider, TemplateSettings settings, TemplateSelector selector, SessionMemo memo,
                     SessionServices services, SessionRevival revival, Provider<SandboxInstances> instances, Provider<OpenPipeline> pipeline,
                     Provider<AutoBuilds> autoBuilds) {
        this.provider = Objects.requireNonNull(provider, "provider");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.selector = Objects.requireNonNull(selector, "selector");
        this.memo = Objects.requireNonNull(memo, "memo");
        this.services = Objects.requireNonNull(services, "services");
        this.revival = Objects.requireNonNull(revival, "revival");
        this.instances = Objects.requireNonNull(instances, "instances");
        this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
        this.autoBuilds = Objects.requireNonNull(autoBuilds, "autoBuilds");
    }

    /** The newest template that fits {@code plan}, when templates are on. */
    Optional<TemplateUse> choose(SessionPlan plan) {
        if (!settings.enabled()) {
            return Optional.empty();
        }
        return selector.newest(TemplateKey.of(provider.name(), plan)).map(template -> new TemplateUse(template, settings.inputs()));
    }

    /** Records that {@code sandbox} was made from {@code use}'s template. */
    void madeWith(MastraSandbox<?> sandbox, TemplateUse use) {
        templated.put(sandbox, use);
    }

    /**
     * When {@code failure} of {@code entry}'s start is its template's fault, skips the template and
     * opens the session again without one, eagerly (whatever the start mode: this start was asked
     * for), and makes every handle on {@code entry} follow the new entry; empty otherwise. Callers
     * that met the same failure at once (a background start and a lazy handle's command) get the
     * one replacement.
     */
    Optional<SessionEntry> withoutTemplate(SessionEntry entry, RuntimeException failure) {
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
            instances.get().hookOf(entry.sandbox()).ifPresent(SessionStartHook::refuseStarts);
            skip(entry, use, failure);
            SessionEntry fresh = pipeline.get().open(spec.get(), false).entry();
            revival.replaced(entry, fresh);
            return Optional.of(fresh);
        }
    }

    /**
     * The sandbox was just made from {@code use}'s template and the start failed because of it: the
     * template does not fit or could not be started. A sandbox the hook found made from a template
     * that does not fit holds nothing of the session's, so it is destroyed; when the provider failed
     * before the hook, nothing is destroyed (it may have been an existing sandbox that failed to
     * connect: the next start meets it again). Either way the open begins again without a template.
     */
    private void skip(SessionEntry entry, TemplateUse use, RuntimeException failure) {
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

    /** After an eager open whose setup is done: asks for a template that would have spared it, when none fits yet. */
    void requestBuild(SessionEntry entry, SessionSpec spec, SessionPlan plan) {
        AutoBuilds builds = autoBuilds.get();
        if (!builds.enabled() || !spec.useTemplates() || entry.template().isPresent() || !selector.supported()) {
            return;
        }
        if (plan.repositories().stream().allMatch(r -> r.setup().isEmpty()) && plan.workspaceSetup().isEmpty()) {
            return; // nothing a template would save but the clone
        }
        TemplateKey key = TemplateKey.of(provider.name(), plan);
        if (selector.newest(key).isEmpty()) {
            SessionPlan.Repository own = plan.repositories().get(0);
            TemplateRequest request = spec.environment().map(env -> {
                TemplateRequest of = TemplateRequest.of(env);
                return spec.baseBranch().map(of::withBase).orElse(of);
            }).orElseGet(() -> new TemplateRequest(own.repository(), Optional.of(own.setup().commands()), own.baseBranch(), Optional.empty()));
            builds.request(key, request);
        }
    }
}
