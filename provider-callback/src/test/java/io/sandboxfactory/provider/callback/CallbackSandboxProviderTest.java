package io.sandboxfactory.provider.callback;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.ProviderContext;
import io.sandboxfactory.api.host.SandboxCallback;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.SandboxProvider;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CallbackSandboxProviderTest {

    /** A ProviderContext holding host objects in a map, as the factory's does. */
    private static final class MapContext implements ProviderContext {
        private final Map<Class<?>, Object> objects = new HashMap<>();

        <T> MapContext with(Class<T> type, T value) {
            objects.put(type, value);
            return this;
        }

        @Override
        public <T> Optional<T> lookup(Class<T> type) {
            return Optional.ofNullable(type.cast(objects.get(type)));
        }

        @Override
        public Path stateDirectory() {
            return Path.of("/nonexistent-state");
        }

        @Override
        public String owner() {
            return "tester";
        }
    }

    private final CallbackSandboxProvider provider = new CallbackSandboxProvider();

    @Test
    void isRegisteredForServiceLoaderAsCustom() {
        List<String> names = ServiceLoader.load(SandboxProvider.class).stream()
                .map(p -> p.get().name())
                .toList();
        assertThat(names).contains("custom");
        assertThat(provider.configType()).isEqualTo(CallbackConfig.class);
    }

    @Test
    void createReturnsTheHostsSandbox() {
        SandboxCallback callback = ctx -> new RecordingSandbox(ctx.sessionId());
        FactorySandbox factory = provider.open(new CallbackConfig(), new MapContext().with(SandboxCallback.class, callback));

        MastraSandbox<?> sandbox = factory.create(FactorySandboxContext.of("s-1"));

        assertThat(sandbox).isInstanceOf(RecordingSandbox.class);
        assertThat(sandbox.id()).isEqualTo("s-1");
        assertThat(sandbox.executeCommand("echo", List.of("hi there"), CommandOptions.defaults()).stdout())
                .isEqualTo("echo 'hi there'");
    }

    @Test
    void openWithoutACallbackTellsTheHostHowToRegisterOne() {
        assertThatThrownBy(() -> provider.open(new CallbackConfig(), new MapContext()))
                .isInstanceOf(SandboxException.class)
                .hasMessage("Sandbox provider 'custom' needs a host function that builds sandboxes, but none is registered;"
                        + " register one with SandboxFactory.builder().callback(ctx -> ...).");
    }

    @Test
    void aSandboxWithAnotherIdIsRejected() {
        SandboxCallback callback = ctx -> new RecordingSandbox("other");
        FactorySandbox factory = provider.open(new CallbackConfig(), new MapContext().with(SandboxCallback.class, callback));

        assertThatThrownBy(() -> factory.create(FactorySandboxContext.of("s-1")))
                .hasMessage("The host's sandbox callback returned a sandbox with id 'other' for session 's-1'; its id must equal the session id.");
    }

    @Test
    void aNullSandboxIsRejected() {
        SandboxCallback callback = ctx -> null;
        FactorySandbox factory = provider.open(new CallbackConfig(), new MapContext().with(SandboxCallback.class, callback));

        assertThatThrownBy(() -> factory.create(FactorySandboxContext.of("s-1")))
                .hasMessageContaining("returned null for session 's-1'");
    }

    @Test
    void capabilitiesAreExecPlusWhatTheHostDeclares() {
        SandboxCallback callback = ctx -> new RecordingSandbox(ctx.sessionId());
        FactorySandbox plain = provider.open(new CallbackConfig(), new MapContext().with(SandboxCallback.class, callback));
        FactorySandbox declared = provider.open(new CallbackConfig(), new MapContext()
                .with(SandboxCallback.class, callback)
                .with(CallbackCapabilities.class, CallbackCapabilities.of(SandboxCapability.FILES_SURVIVE_STOP)));

        assertThat(plain.capabilities()).isEmpty();
        assertThat(declared.capabilities())
                .containsExactlyInAnyOrder(SandboxCapability.FILES_SURVIVE_STOP);
    }

    @Test
    void inventoryCannotBeDeclared() {
        assertThatThrownBy(() -> CallbackCapabilities.of(SandboxCapability.INVENTORY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("INVENTORY cannot be declared");
    }
}
