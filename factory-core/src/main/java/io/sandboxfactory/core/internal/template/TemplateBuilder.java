package io.sandboxfactory.core.internal.template;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.capability.SandboxTemplate;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.capability.TemplateBuild;
import io.sandboxfactory.api.support.Sandboxes;
import io.sandboxfactory.core.internal.session.SessionDefaults;
import io.sandboxfactory.core.internal.session.SessionOpener;
import io.sandboxfactory.core.internal.session.SessionPlan;
import io.sandboxfactory.core.session.Redaction;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionLayout;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.session.SessionSpecBuilder;
import io.sandboxfactory.store.api.SessionStore;
import io.sandboxfactory.core.template.TemplateRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Builds a template (design §5.14): opens a throw-away session of the repository (or environment)
 * without any template (clone, setup, markers), hashes the declared input files at the base commit
 * (of the primary repository), detaches every checkout from the throw-away branch so sessions made from it check out their own, hands the
 * sandbox to the provider to snapshot, and destroys the session whatever happened.
 */
public final class TemplateBuilder {

    private static final Logger LOG = LoggerFactory.getLogger(TemplateBuilder.class);
    static final String BUILD_BRANCH = "sandbox-factory-template";

    private final String providerName;
    private final FactorySandbox provider;
    private final SessionOpener opener;
    private final SessionStore store;
    private final SessionDefaults defaults;
    private final TemplateSettings settings;
    private final Consumer<String> destroySession;
    private final Clock clock;

    public TemplateBuilder(String providerName, FactorySandbox provider, SessionOpener opener, SessionStore store,
                           SessionDefaults defaults, TemplateSettings settings, Consumer<String> destroySession, Clock clock) {
        this.providerName = Objects.requireNonNull(providerName, "providerName");
        this.provider = Objects.requireNonNull(provider, "provider");
        this.opener = Objects.requireNonNull(opener, "opener");
        this.store = Objects.requireNonNull(store, "store");
        this.defaults = Objects.requireNonNull(defaults, "defaults");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.destroySession = Objects.requireNonNull(destroySession, "destroySession");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public SandboxTemplate build(TemplateRequest request) {
        if (!new TemplateSelector(providerName, provider).supported()) {
            throw new SandboxException(StandardErrorCode.TEMPLATES_UNSUPPORTED, "Sandbox provider '" + providerName
                    + "' does not support templates; use a provider that declares TEMPLATES (local, docker).");
        }
        Instant now = clock.instant();
        // The key comes from the plan a session of this repository (or environment) and setup would have, defaults applied.
        SessionPlan plan = SessionPlan.of(spec("template-key", request), defaults);
        SessionPlan.Repository own = plan.repositories().get(0);
        TemplateKey key = TemplateKey.of(providerName, plan);
        String name = key.newName(now);
        String sessionId = "template-build-" + name;
        SessionSpec build = spec(sessionId, request);
        try {
            SessionHandle session = opener.open(build);
            SessionLayout layout = session.layout().orElseThrow(() -> new IllegalStateException("The template build session has no checkout."));
            String checkout = layout.ownRepository().path();
            // Input files are read in the primary checkout, at its base.
            String base = "origin/" + store.find(sessionId).flatMap(r -> r.definition().baseBranch())
                    .or(() -> own.baseBranch()).orElse("HEAD");
            String inputsHash = TemplateInputs.hash(session, checkout, base, settings.inputs(), defaults.timeouts().probe());
            String baseCommit = run(session, checkout, "git rev-parse --verify -q " + Sandboxes.quote(base + "^{commit}")).strip();
            for (SessionLayout.Checkout each : layout.repositories()) {
                // The refresh writes an index newer than the files, so copies of it need not re-check them as "racy".
                run(session, each.path(), "git checkout -q --detach && git branch -q -D " + BUILD_BRANCH
                        + " && { git update-index -q --refresh >/dev/null || true; }");
            }
            SandboxTemplate template = new SandboxTemplate(name, providerName, key.subject(), key.setupHash(), inputsHash,
                    baseCommit, now);
            return provider.buildTemplate(new TemplateBuild(template, session.sandbox()));
        } finally {
            try {
                destroySession.accept(sessionId);
            } catch (RuntimeException e) {
                LOG.warn("Destroying the template build session '{}' failed; a sweep removes it: {}", sessionId, e.getMessage());
            }
        }
    }

    private static SessionSpec spec(String sessionId, TemplateRequest request) {
        SessionSpecBuilder spec = SessionSpec.builder(sessionId).branch(BUILD_BRANCH).useTemplates(false);
        request.environment().ifPresentOrElse(spec::environment, () -> spec.repository(request.repository()));
        request.setupCommands().ifPresent(spec::setupCommands);
        request.baseBranch().ifPresent(spec::baseBranch);
        return spec.build();
    }

    private String run(SessionHandle session, String checkout, String command) {
        CommandResult result = session.executeCommand("cd " + Sandboxes.quote(checkout) + " && " + command, List.of(),
                CommandOptions.builder().timeout(defaults.timeouts().checkout()).build());
        if (!result.success()) {
            throw new SandboxException(StandardErrorCode.TEMPLATE_BUILD_FAILED, "Preparing the template checkout failed (exit " + result.exitCode() + "): "
                    + Redaction.ofEnvironment(session.sandbox().getEnv()).apply(result.stderr().strip()));
        }
        return result.stdout();
    }
}
