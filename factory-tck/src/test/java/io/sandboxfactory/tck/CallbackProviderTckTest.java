package io.sandboxfactory.tck;

import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.host.SandboxCallback;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.api.SandboxProvider;
import io.sandboxfactory.provider.callback.CallbackCapabilities;
import io.sandboxfactory.provider.callback.CallbackConfig;
import io.sandboxfactory.provider.callback.CallbackSandboxProvider;
import io.sandboxfactory.provider.local.LocalProviderConfig;
import io.sandboxfactory.provider.local.LocalSandboxProvider;

import java.nio.file.Path;
import java.util.Map;

/**
 * The {@code custom} provider passes the kit with a host function that hands out local sandboxes,
 * as a host managing its own sandboxes would, declaring what they can do.
 */
class CallbackProviderTckTest extends ProviderContractTest<CallbackConfig> {

    CallbackProviderTckTest() {
        super(underTest());
    }

    private static ProviderUnderTest<CallbackConfig> underTest() {
        return new ProviderUnderTest<>() {
            @Override
            public SandboxProvider<CallbackConfig> provider() {
                return new CallbackSandboxProvider();
            }

            @Override
            public CallbackConfig config(Path workDirectory) {
                return new CallbackConfig();
            }

            @Override
            public Map<Class<?>, Object> hostObjects(Path workDirectory) {
                FactorySandbox hostSandboxes = new LocalSandboxProvider().open(
                        LocalProviderConfig.withRoot(workDirectory.resolve("host-sessions").toString()),
                        new KitProviderContext(workDirectory.resolve("host-state"), "host", Map.of()));
                SandboxCallback callback = hostSandboxes::create;
                return Map.of(SandboxCallback.class, callback, CallbackCapabilities.class,
                        CallbackCapabilities.of(SandboxCapability.FILES_SURVIVE_STOP, SandboxCapability.RECONNECT_ACROSS_PROCESSES,
                                SandboxCapability.ATTACH));
            }
        };
    }
}
