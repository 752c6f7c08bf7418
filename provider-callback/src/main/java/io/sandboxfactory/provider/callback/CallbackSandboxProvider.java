package io.sandboxfactory.provider.callback;

import io.sandboxfactory.api.error.ErrorCodeSupplier;
import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.ProviderContext;
import io.sandboxfactory.api.host.SandboxCallback;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.support.AbstractSandboxProvider;

import java.util.List;

/**
 * The {@code custom} provider: sessions run on sandboxes the host builds itself, through a {@link
 * SandboxCallback} registered with {@code SandboxFactory.builder().callback(ctx -> ...)}.
 *
 * <p>Capabilities: whatever the host declares with an optional {@link
 * CallbackCapabilities} host object. Opening without a registered callback fails with a sentence
 * telling the host how to register one.
 */
public final class CallbackSandboxProvider extends AbstractSandboxProvider<CallbackConfig> {

    /** The name users select: {@code provider: custom}. */
    public static final String NAME = "custom";

    public CallbackSandboxProvider() {
        super(NAME, CallbackConfig.class, "Sandboxes built by a function the host registers (SandboxFactory.builder().callback(...)).");
    }

    @Override
    public FactorySandbox open(CallbackConfig config, ProviderContext context) {
        SandboxCallback callback = context.lookup(SandboxCallback.class).orElseThrow(() -> new SandboxException(
                CallbackErrorCode.CALLBACK_MISSING, "Sandbox provider 'custom' needs a host function that builds sandboxes, but none is"
                        + " registered; register one with SandboxFactory.builder().callback(ctx -> ...)."));
        CallbackCapabilities declared = context.lookup(CallbackCapabilities.class).orElse(CallbackCapabilities.of());
        return new CallbackFactorySandbox(callback, declared.declared());
    }

    @Override
    public List<ErrorCodeSupplier> errorCodes() {
        return List.of(CallbackErrorCode.values());
    }
}
