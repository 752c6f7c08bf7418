package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.CommandExecutor;
import io.sandboxfactory.core.internal.git.Freshness;
import io.sandboxfactory.core.internal.git.SessionBranch;
import io.sandboxfactory.core.internal.template.TemplateInputs;
import io.sandboxfactory.core.internal.template.TemplateUse;
import io.sandboxfactory.core.session.SessionLayout;
import io.sandboxfactory.core.session.SessionPhase;
import io.sandboxfactory.core.template.TemplateRejectedException;
import jakarta.inject.Inject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Pipeline step: session branch. In each repository, a checkout already on the session branch is
 * fast-forwarded when it can be (its freshness is recorded for {@code status}); any other checkout
 * is switched to the session branch, made from its base when it does not exist. The primary's
 * resolved base is stored, so later starts and processes branch from the same base. A sandbox made
 * from a template is checked against it here: a template whose inputs differ at the base is
 * rejected, and the opener makes the sandbox again without it.
 */
final class CheckoutSessionBranch {

    private static final Logger LOG = LoggerFactory.getLogger(CheckoutSessionBranch.class);

    private final SessionServices services;
    private final GenerationCheck generations;
    private final SessionBranch branches;
    private final Freshness freshness;

    @Inject
    CheckoutSessionBranch(SessionServices services, GenerationCheck generations, SessionBranch branches, Freshness freshness) {
        this.services = Objects.requireNonNull(services, "services");
        this.generations = Objects.requireNonNull(generations, "generations");
        this.branches = Objects.requireNonNull(branches, "branches");
        this.freshness = Objects.requireNonNull(freshness, "freshness");
    }

    void checkout(SessionStart start, PreparedWorkspace workspace) {
        SessionPlan plan = start.plan();
        List<String> standing = new ArrayList<>();
        String templateBase = "HEAD";
        for (int i = 0; i < plan.repositories().size(); i++) {
            SessionPlan.Repository repository = plan.repositories().get(i);
            SessionLayout.Checkout checkout = workspace.checkout(i);
            if (workspace.fetched().get(i) && workspace.state(i).currentBranch().filter(plan.branch()::equals).isPresent()) {
                start.quiet();
                Freshness.Result fresh = workspace.state(i).upstream().isPresent()
                        ? freshness.update(start.exec(), checkout.path()) : Freshness.Result.NO_UPSTREAM;
                report(start, fresh, checkout);
                standing.add(plan.environment() ? checkout.repoDir() + ": " + fresh.describe() : fresh.describe());
                continue;
            }
            start.phase(SessionPhase.CHECKOUT, plan.branch());
            SessionBranch.Result branch = branches.checkout(start.exec(), checkout.path(), plan.branch(), repository.baseBranch(),
                    workspace.access().get(i));
            if (i == 0) {
                templateBase = repository.baseBranch().or(branch::resolvedBase).map(b -> "origin/" + b).orElse("HEAD");
            }
            if (i == 0 && !plan.environment()) {
                // Resolved once: later starts and processes create branches from the same base.
                branch.resolvedBase().ifPresent(base -> services.store().recordBaseBranch(start.id(), base));
            }
            branch.note().ifPresent(note -> start.phase(SessionPhase.BRANCH_KEPT, note));
        }
        generations.require(start.id(), start.generation());
        if (start.madeFrom().isPresent()) {
            requireFittingTemplate(start, start.madeFrom().get(), workspace.checkout(0).path(), templateBase);
        }
        if (!standing.isEmpty()) {
            services.store().recordFreshness(start.id(), String.join("; ", standing));
        }
    }

    /**
     * A template whose input files differ at the base from those it was built with does not serve
     * the session: the opener makes the sandbox again without it. Otherwise the entry records it.
     */
    private void requireFittingTemplate(SessionStart start, TemplateUse use, String checkout, String base) {
        CommandExecutor exec = start.exec();
        String now = TemplateInputs.hash(exec, checkout, base, use.inputs(), services.defaults().timeouts().probe());
        if (!now.equals(use.template().inputsHash())) {
            throw new TemplateRejectedException("Template " + use.template().name() + " was built from other " + use.inputs()
                    + " than " + base + " holds now.");
        }
        start.entry().ifPresent(e -> e.usedTemplate(use.template().name()));
    }

    private static void report(SessionStart start, Freshness.Result fresh, SessionLayout.Checkout checkout) {
        if (fresh.state() == Freshness.State.FAST_FORWARDED) {
            start.phase(SessionPhase.FAST_FORWARDED, fresh.describe());
        } else if (fresh.needsAttention()) {
            LOG.warn("Session '{}': {} is {}; it was left as it is.", start.id(), checkout.path(), fresh.describe());
            start.phase(SessionPhase.NOT_FAST_FORWARDED, fresh.describe());
        }
    }
}
