package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.testing.TestProviderContext;
import io.sandboxfactory.api.InvalidConfigValueException;
import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.SandboxProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The provider is found by {@link ServiceLoader} under the name {@code local} and opens with sensible roots. */
class LocalProviderDiscoveryTest {

    @TempDir
    Path temp;

    @Test
    void isDiscoverableByServiceLoaderAsLocal() {
        List<SandboxProvider<?>> local = ServiceLoader.load(SandboxProvider.class).stream()
                .<SandboxProvider<?>>map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals("local"))
                .toList();

        assertThat(local).singleElement().isInstanceOf(LocalSandboxProvider.class);
        assertThat(local.get(0).configType()).isEqualTo(LocalProviderConfig.class);
        assertThat(local.get(0).description()).isNotBlank();
    }

    @Test
    void defaultsTheRootToSessionsUnderTheStateDirectory() {
        try (FactorySandbox factory = new LocalSandboxProvider().open(LocalProviderConfig.defaults(), new TestProviderContext(temp))) {
            assertThat(((LocalFactorySandbox) factory).root()).isEqualTo(temp.resolve("sessions"));
        }
        assertThat(temp.resolve("sessions")).as("opening touches nothing").doesNotExist();
    }

    @Test
    void expandsATildeRootToTheUserHome() {
        FactorySandbox factory = new LocalSandboxProvider().open(LocalProviderConfig.withRoot("~/sf-sessions"), new TestProviderContext(temp));

        assertThat(((LocalFactorySandbox) factory).root()).isEqualTo(Path.of(System.getProperty("user.home"), "sf-sessions"));
    }

    @Test
    void refusesARelativeRootNamingItWithoutTheSectionPrefix() {
        assertThatThrownBy(() -> LocalProviderConfig.withRoot("relative/sessions"))
                .isInstanceOfSatisfying(InvalidConfigValueException.class, e -> assertThat(e.problems()).containsExactly(
                        new InvalidConfigValueException.Problem("root", "relative/sessions", "it must be an absolute path or start with ~/")))
                .hasMessage("root 'relative/sessions' is invalid; it must be an absolute path or start with ~/.");
    }
}
