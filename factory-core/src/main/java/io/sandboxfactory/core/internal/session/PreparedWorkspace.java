package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.host.RepositoryAccess;
import io.sandboxfactory.core.internal.git.CheckoutState;
import io.sandboxfactory.core.session.SessionLayout;
import io.sandboxfactory.store.api.Fence;

import java.util.List;

/**
 * What the materialize step hands the later steps of one start.
 *
 * @param access the access minted for each repository of the plan, in position order
 * @param seen what the probe found in the sandbox before anything changed
 * @param layout where each checkout is
 * @param fetched for each repository, whether it was kept and fetched (rather than cloned)
 * @param fence the lease fence the store's writes of this start carry
 */
record PreparedWorkspace(List<RepositoryAccess> access, WorkspaceProbe.Result seen, SessionLayout layout, List<Boolean> fetched,
                         Fence fence) {

    PreparedWorkspace {
        access = List.copyOf(access);
        fetched = List.copyOf(fetched);
    }

    CheckoutState state(int repository) {
        return seen.checkouts().get(repository);
    }

    SessionLayout.Checkout checkout(int repository) {
        return layout.repositories().get(repository);
    }
}
