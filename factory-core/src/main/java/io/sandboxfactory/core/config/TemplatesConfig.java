package io.sandboxfactory.core.config;

/**
 * The {@code templates:} section (design §5.14).
 *
 * @param autoBuild build a template in the background after an eager open's setup succeeded when
 *     no template of its repository and setup exists (default false)
 */
public record TemplatesConfig(Boolean autoBuild) {

    public TemplatesConfig {
        autoBuild = autoBuild != null && autoBuild;
    }

    public static TemplatesConfig defaults() {
        return new TemplatesConfig(false);
    }
}
