package io.sandboxfactory.api.capability;

import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.MastraSandbox;
import java.util.Objects;

/**
 * What {@link FactorySandbox#buildTemplate} snapshots.
 *
 * @param template the template to make: its name and key as it will be listed
 * @param source the running, set-up sandbox to snapshot; one this provider made
 * @since 0.1.0
 */
public record TemplateBuild(SandboxTemplate template, MastraSandbox<?> source) {

    public TemplateBuild {
        Objects.requireNonNull(template, "template");
        Objects.requireNonNull(source, "source");
    }
}
