package io.sandboxfactory.core.internal.template;

import io.sandboxfactory.api.capability.SandboxTemplate;
import io.sandboxfactory.core.session.SessionRetiredException;
import io.sandboxfactory.core.template.TemplateRejectedException;
import io.sandboxfactory.store.api.FencedOutException;

import java.util.List;
import java.util.Objects;

/**
 * One sandbox instance made with a template in its context: whether the session hook was reached
 * (a provider that failed to make the sandbox from the template never reaches it), so the opener
 * can tell a template failure, which it skips, from a failure of the session itself.
 */
public final class TemplateUse {

    private final SandboxTemplate template;
    private final List<String> inputs;
    private volatile boolean reached;

    public TemplateUse(SandboxTemplate template, List<String> inputs) {
        this.template = Objects.requireNonNull(template, "template");
        this.inputs = List.copyOf(inputs);
    }

    public SandboxTemplate template() {
        return template;
    }

    public List<String> inputs() {
        return inputs;
    }

    /** Called by the session hook when it prepares a sandbox made from this template. */
    public void reached() {
        reached = true;
    }

    /** Whether {@code failure} of the start means the template is at fault: it did not fit, or the provider could not make the sandbox from it. */
    public boolean isTemplateFailure(RuntimeException failure) {
        if (failure instanceof SessionRetiredException || failure instanceof FencedOutException) {
            return false;
        }
        return rejected(failure) || !reached;
    }

    /** Whether the session hook found that the sandbox made from the template does not fit. */
    public boolean rejected(RuntimeException failure) {
        return failure instanceof TemplateRejectedException || failure.getCause() instanceof TemplateRejectedException;
    }
}
