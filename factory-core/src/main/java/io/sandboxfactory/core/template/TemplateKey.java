package io.sandboxfactory.core.template;

import io.sandboxfactory.api.SandboxTemplate;

import java.time.Instant;
import java.util.Objects;

/**
 * What a template must match to serve a session: the provider, the subject (the repository as
 * sessions name it) and the setup marker content. Input files are checked separately, after the
 * fetch, because their hash is only known at the base commit inside the sandbox.
 */
public record TemplateKey(String provider, String subject, String setupHash) {

    public TemplateKey {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(setupHash, "setupHash");
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
