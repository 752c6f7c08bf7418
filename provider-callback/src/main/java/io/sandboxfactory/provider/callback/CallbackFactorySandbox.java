package io.sandboxfactory.provider.callback;

import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.host.SandboxCallback;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.api.SandboxException;

import java.util.Objects;
import java.util.Set;

/**
 * The {@code custom} provider's factory: each {@link #create} calls the host's function and checks
 * that it kept the contract (a sandbox, whose id is the session id). Provisioning, idempotence and
 * id-keyed reattach are the host sandbox's own business.
 */
final class CallbackFactorySandbox implements FactorySandbox {

    private final SandboxCallback callback;
    private final Set<SandboxCapability> capabilities;

    CallbackFactorySandbox(SandboxCallback callback, Set<SandboxCapability> capabilities) {
        this.callback = Objects.requireNonNull(callback, "callback");
        this.capabilities = Set.copyOf(capabilities);
    }

    @Override
    public MastraSandbox<?> create(FactorySandboxContext ctx) {
        MastraSandbox<?> sandbox = callback.apply(ctx);
        if (sandbox == null) {
            throw new SandboxException(CallbackErrorCode.CALLBACK_INVALID, "The host's sandbox callback returned null for session '"
                    + ctx.sessionId() + "'; it must return a sandbox whose id is the session id.");
        }
        if (!ctx.sessionId().equals(sandbox.id())) {
            throw new SandboxException(CallbackErrorCode.CALLBACK_INVALID, "The host's sandbox callback returned a sandbox with id '"
                    + sandbox.id() + "' for session '" + ctx.sessionId() + "'; its id must equal the session id.");
        }
        return sandbox;
    }

    @Override
    public Set<SandboxCapability> capabilities() {
        return capabilities;
    }

    @Override
    public String toString() {
        return "CallbackFactorySandbox[capabilities=" + capabilities + "]";
    }
}
