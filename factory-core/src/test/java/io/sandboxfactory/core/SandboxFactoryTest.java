package io.sandboxfactory.core;

import com.google.inject.ConfigurationException;
import com.google.inject.Injector;
import com.google.inject.Key;
import com.google.inject.Scopes;
import com.google.inject.Stage;
import com.google.inject.TypeLiteral;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.ProviderContext;
import io.sandboxfactory.api.SandboxProvider;
import io.sandboxfactory.core.internal.session.SessionMemo;
import io.sandboxfactory.core.internal.session.SessionOpener;
import io.sandboxfactory.core.internal.session.SessionTimeouts;
import io.sandboxfactory.core.internal.store.SessionLeases;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.retire.SessionSelector;
import io.sandboxfactory.core.internal.template.AutoBuilds;
import io.sandboxfactory.store.api.SessionStore;
import io.sandboxfactory.core.store.SqliteSessionStore;
import io.sandboxfactory.core.testing.MemorySandbox;
import io.sandboxfactory.core.testing.MemorySandboxProvider;
import io.sandboxfactory.core.internal.wiring.OwnedResources;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SandboxFactoryTest {

    @TempDir
    Path tmp;

    /** A class nobody binds: with explicit bindings Guice must refuse to make one just in time. */
    static final class Unbound {
        Unbound() {
        }
    }

    private SandboxFactoryBuilder memoryFactory() {
        return SandboxFactory.builder()
                .provider("test-memory")
                .environment(Map.of())
                .stateDirectory(tmp.resolve("state"));
    }

    @Test
    void theInjectorIsProductionStageWithExplicitBindingsOnly() {
        try (SandboxFactory factory = memoryFactory().build()) {
            Injector injector = factory.injector();

            assertThat(injector.getInstance(Stage.class)).isEqualTo(Stage.PRODUCTION);
            assertThatThrownBy(() -> injector.getInstance(Unbound.class))
                    .isInstanceOf(ConfigurationException.class)
                    .hasMessageContaining("Explicit bindings are required");
        }
    }

    @Test
    void selectingTheProviderIsInjectionFromTheProviderMap() {
        try (SandboxFactory factory = memoryFactory().build()) {
            Injector injector = factory.injector();
            Map<String, SandboxProvider<?>> byName = injector.getInstance(
                    Key.get(new TypeLiteral<Map<String, SandboxProvider<?>>>() { }));

            assertThat(byName.keySet()).containsAll(List.of("custom", "test-memory"));
            assertThat(byName.keySet()).containsExactlyInAnyOrderElementsOf(
                    factory.providers().stream().map(p -> p.name()).toList());
            assertThat(injector.getInstance(FactorySandbox.class)).isSameAs(factory.factorySandbox());
            assertThat(factory.providerName()).isEqualTo("test-memory");
        }
    }

    @Test
    void twoFactoriesShareNothing() {
        try (SandboxFactory one = memoryFactory().build(); SandboxFactory two = memoryFactory().build()) {
            assertThat(one.injector()).isNotSameAs(two.injector());
            assertThat(one.memo()).isNotSameAs(two.memo());
            assertThat(one.injector().getInstance(SessionMemo.class)).isSameAs(one.memo());
            assertThat(one.factorySandbox()).isNotSameAs(two.factorySandbox());

            MastraSandbox<?> fromOne = one.sandbox(FactorySandboxContext.of("s"));

            assertThat(one.memo().peek("s")).isPresent();
            assertThat(two.memo().peek("s")).isEmpty();
            assertThat(two.sandbox(FactorySandboxContext.of("s"))).isNotSameAs(fromOne);
        }
    }

    @Test
    void sandboxGetsOrCreatesThroughTheMemo() {
        try (SandboxFactory factory = memoryFactory().build()) {
            FactorySandboxContext ctx = FactorySandboxContext.builder("s-1").repoFullName("acme/widgets").build();

            MastraSandbox<?> first = factory.sandbox(ctx);
            MastraSandbox<?> again = factory.sandbox(FactorySandboxContext.of("s-1"));

            assertThat(again).isSameAs(first);
            assertThat(first.id()).isEqualTo("s-1");
            assertThat(factory.memo().peek("s-1")).get().satisfies(entry -> {
                assertThat(entry.sandbox()).isSameAs(first);
                assertThat(entry.ownRepo()).contains("acme/widgets");
            });
            assertThat(first.executeCommand("true", List.of(), CommandOptions.defaults()).stdout()).isEqualTo("memory:true");
        }
    }

    @Test
    void theProviderIsOpenedWithItsBoundConfigAndAContextOfHostObjects() throws IOException {
        Path config = Files.writeString(tmp.resolve("factory.yaml"), """
                provider: test-memory
                owner: team-a
                providers:
                  test-memory:
                    label: configured
                """);
        try (SandboxFactory factory = SandboxFactory.builder()
                .config(config)
                .environment(Map.of())
                .stateDirectory(tmp.resolve("state"))
                .hostObject(StringBuilder.class, new StringBuilder("from host"))
                .build()) {
            MemorySandboxProvider.Factory opened = (MemorySandboxProvider.Factory) factory.factorySandbox();
            ProviderContext context = opened.context();

            assertThat(opened.config().label()).isEqualTo("configured");
            assertThat(context.lookup(StringBuilder.class)).get().hasToString("from host");
            assertThat(context.lookup(String.class)).isEmpty();
            assertThat(context.stateDirectory()).isEqualTo(tmp.resolve("state")).isDirectory();
            assertThat(context.owner()).isEqualTo("team-a");
            assertThat(factory.stateDirectory()).isEqualTo(tmp.resolve("state"));
            assertThat(factory.config().origin()).isEqualTo(config.toString());
        }
    }

    @Test
    void providersSeeTheEnvironmentTheFactoryWasBuiltWithNotTheProcesses() throws Exception {
        Path fakeHome = Files.createDirectories(tmp.resolve("someone-else"));
        Map<String, String> environment = Map.of("HOME", fakeHome.toString(), "PATH", "/usr/bin:/bin", "MARK", "built-with",
                "FACTORY_PROVIDERS_LOCAL_PASS_ENV", "[MARK]");
        try (SandboxFactory factory = memoryFactory().environment(environment).build()) {
            ProviderContext context = ((MemorySandboxProvider.Factory) factory.factorySandbox()).context();
            assertThat(context.environment()).isEqualTo(environment);
        }
        // The real local provider passes PATH and the passEnv names to its commands from there (an isolated
        // session's HOME is its own).
        try (SandboxFactory factory = SandboxFactory.builder().provider("local").environment(environment)
                .stateDirectory(tmp.resolve("local-state")).build()) {
            MastraSandbox<?> sandbox = factory.sandbox(FactorySandboxContext.builder("env-check").build());
            assertThat(sandbox.executeCommand("printf '%s|%s' \"$MARK\" \"$PATH\"").stdout())
                    .isEqualTo("built-with|/usr/bin:/bin");
            sandbox.destroy();
        }
    }

    @Test
    void aRelativeStateDirectoryResolvesAgainstTheBuildersWorkingDirectory() throws Exception {
        Path elsewhere = Files.createDirectories(tmp.resolve("caller-cwd"));
        try (SandboxFactory fromOverride = memoryFactory().workingDirectory(elsewhere).stateDirectory(Path.of("rel-state")).build()) {
            assertThat(fromOverride.stateDirectory()).isEqualTo(elsewhere.resolve("rel-state")).isDirectory();
        }
        try (SandboxFactory fromEnv = SandboxFactory.builder().provider("test-memory").workingDirectory(elsewhere)
                .environment(Map.of("FACTORY_STATE_DIR", "env-state")).build()) {
            assertThat(fromEnv.stateDirectory()).isEqualTo(elsewhere.resolve("env-state")).isDirectory();
        }
    }

    @Test
    void providerSelectionPrecedenceIsBuilderOverEnvironmentOverFile() throws IOException {
        Path config = Files.writeString(tmp.resolve("factory.yaml"), "provider: test-absent\n");
        SandboxFactoryBuilder builder = SandboxFactory.builder()
                .config(config)
                .stateDirectory(tmp.resolve("state"))
                .callback(ctx -> new MemorySandbox(ctx.sessionId(), "host", "host"));

        assertThatThrownBy(() -> builder.environment(Map.of()).build()).hasMessageContaining("'test-absent'");
        try (SandboxFactory fromEnv = builder.environment(Map.of("FACTORY_PROVIDER", "test-memory")).build()) {
            assertThat(fromEnv.providerName()).isEqualTo("test-memory");
        }
        try (SandboxFactory fromBuilder = builder.provider("custom").build()) {
            assertThat(fromBuilder.providerName()).isEqualTo("custom");
        }
    }

    @Test
    void aProviderThatRefusesToOpenIsReportedByNameBeforeTheStateDirectoryExists() {
        AtomicInteger opens = new AtomicInteger();
        assertThatThrownBy(() -> memoryFactory()
                .environment(Map.of("FACTORY_PROVIDERS_TEST_MEMORY_FAIL_OPEN", "true"))
                .hostObject(AtomicInteger.class, opens)
                .build())
                // Opened while the injector is made: our own error, not a Guice CreationException around it.
                .isExactlyInstanceOf(FactoryConfigurationException.class)
                .hasMessage("Sandbox provider 'test-memory' could not be opened: the memory pool is unavailable")
                .satisfies(e -> assertThat(e).hasNoSuppressedExceptions()
                        .satisfies(own -> assertThat(own.getCause()).isNotInstanceOf(com.google.inject.ProvisionException.class)));
        assertThat(tmp.resolve("state")).doesNotExist();
        assertThat(opens).as("what depends on the provider does not open it again").hasValue(1);
    }

    @Test
    void badConfigIsRefusedBeforeTheStateDirectoryExists() throws IOException {
        Path config = Files.writeString(tmp.resolve("factory.yaml"), "providers:\n  test-memory:\n    lable: x\n");

        assertThatThrownBy(() -> memoryFactory().config(config).build())
                .hasMessageStartingWith("Unknown configuration key 'providers.test-memory.lable' in " + config);
        assertThat(tmp.resolve("state")).doesNotExist();
    }

    @Test
    void anUnknownProviderNameListsWhatIsAvailable() {
        assertThatThrownBy(() -> memoryFactory().provider("nope").build())
                .hasMessageStartingWith("Unknown sandbox provider 'nope'; available: [")
                .hasMessageContaining("custom, ")
                .hasMessageContaining("test-memory");
    }

    @Test
    void theFactoryOwnsEveryCloseableItsInjectorMadeAndClosesThemNewestFirstTheStoreAndProviderLast() {
        SandboxFactory factory = memoryFactory().build();
        Injector injector = factory.injector();
        List<Object> owned = injector.getInstance(OwnedResources.class).owned();
        List<Object> closeables = injector.getAllBindings().values().stream()
                .filter(Scopes::isSingleton)
                .map(binding -> (Object) binding.getProvider().get())
                .filter(instance -> instance instanceof AutoCloseable && !(instance instanceof OwnedResources))
                .toList();
        MemorySandboxProvider.Factory provider = (MemorySandboxProvider.Factory) factory.factorySandbox();

        assertThat(closeables).contains(injector.getInstance(SessionLeases.class), injector.getInstance(SessionOpener.class),
                injector.getInstance(AutoBuilds.class));
        assertThat(owned.subList(0, 2)).containsExactly(provider, factory.sessionStore());
        assertThat(owned.subList(2, owned.size())).containsExactlyInAnyOrderElementsOf(closeables);
        // Template builds open sessions through the opener: they finish before it closes.
        assertThat(owned.indexOf(injector.getInstance(AutoBuilds.class))).isGreaterThan(owned.indexOf(injector.getInstance(SessionOpener.class)));
        assertThat(owned.indexOf(injector.getInstance(SessionOpener.class))).isGreaterThan(owned.indexOf(injector.getInstance(SessionLeases.class)));

        factory.close();

        assertThat(provider.isClosed()).isTrue();
        assertThatThrownBy(() -> ((SessionStore) owned.get(1)).find("s")).isInstanceOf(RuntimeException.class);
    }

    @Test
    void theSessionTimeoutsComeFromTheConfigsTimeoutsSection() throws IOException {
        Path config = Files.writeString(tmp.resolve("factory.yaml"),
                "timeouts:\n  setup: 2m\n  probe: 20s\n  network: 3m\n  checkout: 40s\n  teardown: 50s\n");

        try (SandboxFactory factory = memoryFactory().config(config).build()) {
            assertThat(factory.injector().getInstance(SessionTimeouts.class)).isEqualTo(new SessionTimeouts(Duration.ofSeconds(20),
                    Duration.ofMinutes(3), Duration.ofSeconds(40), Duration.ofMinutes(2), Duration.ofSeconds(50)));
        }
        try (SandboxFactory factory = memoryFactory().build()) {
            assertThat(factory.injector().getInstance(SessionTimeouts.class)).isEqualTo(SessionTimeouts.defaults());
        }
    }

    @Test
    void aNonPositiveTimeoutIsRefusedNamingItsKey() throws IOException {
        Path config = Files.writeString(tmp.resolve("factory.yaml"), "timeouts:\n  network: 0s\n");

        assertThatThrownBy(() -> memoryFactory().config(config).build())
                .hasMessageContaining("timeouts.network")
                .hasMessageContaining("it must be positive");
        assertThat(tmp.resolve("state")).doesNotExist();
    }

    @Test
    void aStoreTheHostGaveIsUsedButNeverClosed() {
        try (SqliteSessionStore hostStore = SqliteSessionStore.open(tmp.resolve("host.db"))) {
            SandboxFactory factory = memoryFactory().sessionStore(hostStore).build();
            assertThat(factory.sessionStore()).isSameAs(hostStore);
            assertThat(factory.injector().getInstance(OwnedResources.class).owned()).doesNotContain(hostStore);

            factory.close();

            assertThat(hostStore.find("s")).isEmpty();
        }
    }

    @Test
    void closeClosesTheProviderOnceAndRefusesNewSandboxes() {
        SandboxFactory factory = memoryFactory().build();
        MemorySandboxProvider.Factory opened = (MemorySandboxProvider.Factory) factory.factorySandbox();

        factory.close();
        factory.close();

        assertThat(opened.isClosed()).isTrue();
        assertThatThrownBy(() -> factory.sandbox(FactorySandboxContext.of("s")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("This SandboxFactory is closed.");
    }

    @Test
    void theFleetHandedOutBeforeACloseIsClosedWithItsFactory() {
        SandboxFactory factory = memoryFactory().build();
        SessionFleet fleet = factory.fleet();
        assertThat(fleet.selectSessions(SessionSelector.label("team", "infra"))).isEmpty();

        factory.close();

        assertThatThrownBy(fleet::sweep).isInstanceOf(IllegalStateException.class).hasMessage("This SandboxFactory is closed.");
        assertThatThrownBy(() -> fleet.retireEach(List.of("s"), RetireMode.STOP, 1)).isInstanceOf(IllegalStateException.class);
    }
}
