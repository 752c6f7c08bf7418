package io.sandboxfactory.core.internal.template;

import java.util.List;
import java.util.Objects;

/**
 * How a factory uses templates: whether at all (only with a provider declaring {@code TEMPLATES})
 * and which input files decide whether one still fits.
 */
public record TemplateSettings(boolean enabled, List<String> inputs) {

    public TemplateSettings {
        inputs = TemplateInputs.requireValid(Objects.requireNonNull(inputs, "inputs"));
    }

    public static TemplateSettings disabled() {
        return new TemplateSettings(false, List.of());
    }
}
