package io.sandboxfactory.core;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.core.testing.MemorySandbox;
import io.sandboxfactory.provider.callback.CallbackCapabilities;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The real {@code custom} provider jar (provider-callback), discovered and selected by name. */
class CallbackProviderWiringTest {

    @TempDir
    Path tmp;

    @Test
    void customServesTheSandboxesOfTheBuilderRegisteredFunction() {
        List<FactorySandboxContext> seen = new ArrayList<>();
        try (SandboxFactory factory = SandboxFactory.builder()
                .provider("custom")
                .environment(Map.of())
                .stateDirectory(tmp.resolve("state"))
                .callback(ctx -> {
                    seen.add(ctx);
                    return new MemorySandbox(ctx.sessionId(), "host-made", "host");
                })
                .hostObject(CallbackCapabilities.class, CallbackCapabilities.of(SandboxCapability.FILES_SURVIVE_STOP))
                .build()) {
            FactorySandboxContext ctx = FactorySandboxContext.builder("s-9").repoFullName("acme/widgets").build();

            MastraSandbox<?> sandbox = factory.sandbox(ctx);

            assertThat(factory.providerName()).isEqualTo("custom");
            assertThat(factory.factorySandbox().capabilities())
                    .containsExactlyInAnyOrder(SandboxCapability.FILES_SURVIVE_STOP);
            assertThat(sandbox).isInstanceOf(MemorySandbox.class);
            assertThat(seen).containsExactly(ctx);
            assertThat(sandbox.executeCommand("ls", List.of(), CommandOptions.defaults()).stdout()).isEqualTo("host:ls");
            assertThat(factory.sandbox(ctx)).isSameAs(sandbox);
            assertThat(seen).hasSize(1);
        }
    }

    @Test
    void customWithoutAFunctionFailsTellingTheHostHowToRegisterOne() {
        assertThatThrownBy(() -> SandboxFactory.builder()
                .provider("custom")
                .environment(Map.of())
                .stateDirectory(tmp.resolve("state"))
                .build())
                .isInstanceOf(FactoryConfigurationException.class)
                .hasMessage("Sandbox provider 'custom' needs a host function that builds sandboxes, but none is registered;"
                        + " register one with SandboxFactory.builder().callback(ctx -> ...).")
                .extracting(e -> ((FactoryConfigurationException) e).code()).isEqualTo("CALLBACK_MISSING");
        assertThat(tmp.resolve("state")).doesNotExist();
    }

    @Test
    void aFunctionReturningAnotherSessionsSandboxIsRejected() {
        try (SandboxFactory factory = SandboxFactory.builder()
                .provider("custom")
                .environment(Map.of())
                .stateDirectory(tmp.resolve("state"))
                .callback(ctx -> new MemorySandbox("someone-else", "host", "host"))
                .build()) {
            assertThatThrownBy(() -> factory.sandbox(FactorySandboxContext.of("s-1")))
                    .hasMessage("The host's sandbox callback returned a sandbox with id 'someone-else' for session 's-1';"
                            + " its id must equal the session id.");
            assertThat(factory.session("s-1")).isEmpty();
        }
    }

    @Test
    void anyKeyInTheCustomSectionIsUnknown() {
        assertThatThrownBy(() -> SandboxFactory.builder()
                .provider("custom")
                .environment(Map.of("FACTORY_PROVIDERS_CUSTOM_URL", "x"))
                .stateDirectory(tmp.resolve("state"))
                .callback(ctx -> new MemorySandbox(ctx.sessionId(), "host", "host"))
                .build())
                .hasMessage("Unknown configuration key 'providers.custom.URL' from environment variable FACTORY_PROVIDERS_CUSTOM_URL;"
                        + " known keys there: [].");
    }
}
