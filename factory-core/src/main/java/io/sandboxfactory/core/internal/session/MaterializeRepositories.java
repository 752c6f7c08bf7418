package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.core.session.Redaction;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.host.RepositoryAccess;
import io.sandboxfactory.core.internal.gateway.GitGateway;
import io.sandboxfactory.core.internal.gateway.GitRoute;
import io.sandboxfactory.core.internal.git.CheckoutState;
import io.sandboxfactory.core.internal.git.GitCredentials;
import io.sandboxfactory.core.internal.git.ObjectCache;
import io.sandboxfactory.core.internal.git.RepositoryMaterializer;
import io.sandboxfactory.core.session.SessionLayout;
import io.sandboxfactory.core.session.SessionPhase;
import io.sandboxfactory.store.api.Fence;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.Map;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Pipeline step: materialize. Mints each repository's access and routes it ({@link GitGateway}: a
 * repository that needs a token is served through the gateway, whose git configuration goes into the
 * sandbox's env overlay; with {@code repository.exposeToken} the token itself does), probes the
 * workspace in one command, and clones each repository or fetches the checkout it keeps (a clone
 * borrows objects from the host's cache when there is one).
 */
final class MaterializeRepositories {

    private final SessionServices services;
    private final WorkspaceProbe probe;
    private final RepositoryMaterializer materializer;
    private final Optional<ObjectCache> objectCache;
    private final GitGateway gateway;

    @Inject
    MaterializeRepositories(SessionServices services, WorkspaceProbe probe, RepositoryMaterializer materializer,
                            Optional<ObjectCache> objectCache, GitGateway gateway) {
        this.gateway = Objects.requireNonNull(gateway, "gateway");
        this.services = Objects.requireNonNull(services, "services");
        this.probe = Objects.requireNonNull(probe, "probe");
        this.materializer = Objects.requireNonNull(materializer, "materializer");
        this.objectCache = Objects.requireNonNull(objectCache, "objectCache");
    }

    PreparedWorkspace materialize(SessionStart start, Fence fence) {
        SessionPlan plan = start.plan();
        List<RepositoryAccess> access = plan.repositories().stream().map(r -> Objects.requireNonNull(r.access().mint(),
                () -> "The repository access source of '" + r.repository() + "' returned null")).toList();
        access.forEach(minted -> services.defaults().locator().requireAllowedCloneUrl(minted.cloneUrl()));
        start.redactWith(redactor(access));
        GitRoute route = gateway.route(start.id(), plan.branch(), access, start.sandbox(), start.exec());
        if (start.sandbox() instanceof MastraSandbox<?> mastra) {
            applyOverlay(mastra, route.overlayEnv());
        }

        start.phase(SessionPhase.PROBE, "");
        Optional<String> knownRoot = start.entry().flatMap(SessionEntry::workdir).or(() -> start.sandbox().workingDirectory())
                .or(start::requestedWorkdir);
        List<String> repoDirs = plan.repositories().stream().map(SessionPlan.Repository::dir).toList();
        WorkspaceProbe.Result seen = probe.probe(start.exec(), knownRoot, repoDirs);
        RepositoryMaterializer.requireGit(seen.gitVersion(), start.id());
        start.entry().ifPresent(e -> e.resolveWorkdir(seen.root()));
        SessionLayout layout = plan.layout(seen.root());

        List<Boolean> fetched = new ArrayList<>();
        for (int i = 0; i < plan.repositories().size(); i++) {
            CheckoutState state = seen.checkouts().get(i);
            RepositoryAccess minted = access.get(i);
            boolean fetch = RepositoryMaterializer.keeps(state, minted.cloneUrl());
            // Taken before the phase is reported: a mirror fetched after this open said it clones is fresh enough for it.
            Instant cloneAsked = Instant.now();
            start.phase(fetch ? SessionPhase.FETCH : SessionPhase.CLONE, minted.cloneUrl());
            Optional<String> reference = fetch ? Optional.empty() : objectCache.flatMap(cache -> cache.referenceFor(minted, cloneAsked));
            materializer.materialize(start.exec(), layout.repositories().get(i).path(), state, route.sandboxAccess().get(i), reference);
            fetched.add(fetch);
        }
        return new PreparedWorkspace(route.sandboxAccess(), seen, layout, fetched, fence);
    }

    private static void applyOverlay(MastraSandbox<?> sandbox, Map<String, String> overlay) {
        sandbox.setEnv(env -> {
            env.keySet().removeIf(name -> GitCredentials.overlayVariables().contains(name) || name.startsWith("GIT_CONFIG_KEY_")
                    || name.startsWith("GIT_CONFIG_VALUE_"));
            env.putAll(overlay);
            return env;
        });
    }

    private static UnaryOperator<String> redactor(List<RepositoryAccess> access) {
        return Redaction.of(access.stream().flatMap(a -> a.authorization().stream()).map(RepositoryAccess.Authorization::token).toList());
    }
}
