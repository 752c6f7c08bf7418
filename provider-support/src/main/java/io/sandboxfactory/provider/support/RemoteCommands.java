package io.sandboxfactory.provider.support;

import io.sandboxfactory.api.CommandRequest;
import io.sandboxfactory.api.CommandResult;

/**
 * A provider's command path to the physical sandbox named by a handle (a container id, a pod name),
 * so {@link RemoteSandbox} can supply the handle of the started sandbox.
 *
 * @param <H> the provider's handle on its physical sandbox
 */
@FunctionalInterface
public interface RemoteCommands<H> {

    /** Runs {@code request} in the physical sandbox {@code handle}, as {@code MastraSandbox.doExecute} does. */
    CommandResult run(H handle, CommandRequest request);
}
