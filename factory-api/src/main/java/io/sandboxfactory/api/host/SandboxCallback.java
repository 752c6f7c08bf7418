package io.sandboxfactory.api.host;

import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.MastraSandbox;
import java.util.function.Function;

/**
 * A host-supplied function that builds the sandbox of a session, for hosts that manage sandboxes
 * themselves. Registered on the factory builder and served by the {@code custom} provider. It
 * must keep the {@link FactorySandbox#create} rules: cheap, side-effect free, id-keyed.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface SandboxCallback extends Function<FactorySandboxContext, MastraSandbox<?>> {
}
