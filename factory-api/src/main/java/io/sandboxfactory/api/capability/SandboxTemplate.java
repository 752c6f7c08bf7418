package io.sandboxfactory.api.capability;

import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;
import java.time.Instant;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A provider's snapshot of a sandbox after materialize and setup (design §5.14), as listed by
 * {@link FactorySandbox#listTemplates()}. The framework picks one for a new sandbox when provider,
 * subject and setup hash equal the session's; the inputs hash is checked after the fetch.
 *
 * @param name the template's name, made by the framework from the key's hash and the build time;
 *     obeys {@link #requireValidName}, so providers may use it in paths and image tags as it is
 * @param provider the provider name that built it
 * @param subject what it was built for: the repository as sessions name it
 * @param setupHash the setup marker content ({@code sha256:<hex>} of the setup commands)
 * @param inputsHash {@code sha256:<hex>} of the declared input files' blob ids at the base commit;
 *     empty when none were declared
 * @param baseCommit the commit of the base branch the template was built at
 * @param createdAt when it was built
 * @since 0.1.0
 */
public record SandboxTemplate(String name, String provider, String subject, String setupHash, String inputsHash,
                              String baseCommit, Instant createdAt) {

    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,79}");

    public SandboxTemplate {
        requireValidName(name);
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(setupHash, "setupHash");
        inputsHash = Objects.requireNonNullElse(inputsHash, "");
        baseCommit = Objects.requireNonNullElse(baseCommit, "");
        Objects.requireNonNull(createdAt, "createdAt");
    }

    /** Fails unless {@code name} is 1–80 characters of {@code [a-z0-9-]}, starting with a letter or digit. */
    public static String requireValidName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Template name '" + name
                    + "' is invalid; it must be 1-80 characters of a-z, 0-9 and '-', starting with a letter or digit.");
        }
        return name;
    }
}
