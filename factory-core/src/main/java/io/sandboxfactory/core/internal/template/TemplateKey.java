package io.sandboxfactory.core.internal.template;

import io.sandboxfactory.api.capability.SandboxTemplate;
import io.sandboxfactory.core.internal.session.SessionPlan;

import java.time.Instant;
import java.util.Objects;

/**
 * What a template must match to serve a session: the provider, the subject (the repository as
 * sessions name it, or an environment's repositories) and the setup marker content. Input files are checked separately, after the
 * fetch, because their hash is only known at the base commit inside the sandbox.
 */
public record TemplateKey(String provider, String subject, String setupHash) {

    public TemplateKey {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(setupHash, "setupHash");
    }

    /**
     * The key of sessions made by {@code plan}: its repository and setup marker, or, for an
     * environment, every repository with its directory and a hash over every setup marker and the
     * workspace setup's, so a change to any of them is another key.
     */
    public static TemplateKey of(String provider, SessionPlan plan) {
        if (!plan.environment()) {
            SessionPlan.Repository own = plan.repositories().get(0);
            return new TemplateKey(provider, own.repository(), own.setup().markerContent());
        }
        StringBuilder subject = new StringBuilder("environment");
        StringBuilder setups = new StringBuilder();
        for (SessionPlan.Repository repository : plan.repositories()) {
            subject.append(' ').append(repository.dir()).append('=').append(repository.repository());
            setups.append(repository.dir()).append('\0').append(repository.setup().markerContent()).append('\n');
        }
        setups.append('\0').append(plan.workspaceSetup().markerContent());
        return new TemplateKey(provider, subject.toString(), "sha256:" + TemplateInputs.sha256(setups.toString()));
    }

    public boolean matches(SandboxTemplate template) {
        return template.provider().equals(provider) && template.subject().equals(subject) && template.setupHash().equals(setupHash);
    }

    /** A name from the key's hash and the build time: never user text, so providers may put it in paths and image tags. */
    public String newName(Instant builtAt) {
        String hash = TemplateInputs.sha256(provider + "\0" + subject + "\0" + setupHash).substring(0, 16);
        return "t" + hash + "-" + Long.toString(builtAt.toEpochMilli(), 36);
    }
}
