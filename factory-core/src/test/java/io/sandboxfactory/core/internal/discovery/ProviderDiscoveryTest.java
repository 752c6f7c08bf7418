package io.sandboxfactory.core.internal.discovery;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.error.ErrorCode;
import io.sandboxfactory.api.error.ErrorCodeSupplier;
import io.sandboxfactory.api.error.ErrorKind;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.FactoryConfigurationException;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.DiscoveredProvider;
import io.sandboxfactory.core.testing.MemoryConfig;
import io.sandboxfactory.core.testing.MemorySandboxProvider;
import io.sandboxfactory.core.testing.ProviderJars;
import io.sandboxfactory.core.testing.ServiceHidingClassLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProviderDiscoveryTest {

    @TempDir
    Path tmp;

    private final ClassLoader testLoader = ProviderDiscoveryTest.class.getClassLoader();

    @Test
    void findsTheProvidersOnTheTestClassPathWithTheirOrigin() {
        DiscoveredProviders found = new ProviderDiscovery().discover(testLoader);

        assertThat(found.names()).contains("custom", "test-memory").isSorted();
        DiscoveredProvider memory = found.require("test-memory");
        assertThat(memory.providerClass()).isEqualTo(MemorySandboxProvider.class);
        assertThat(memory.configType()).isEqualTo(MemoryConfig.class);
        assertThat(memory.description()).isEqualTo("In-memory sandboxes for tests.");
        assertThat(Path.of(memory.location())).endsWith(Path.of("target", "test-classes"));
    }

    @Test
    void aProviderJarBuiltAtTestTimeIsDiscoveredSelectableAndCreatesSandboxes() throws IOException {
        Path jar = ProviderJars.providerJar(tmp, "acme-provider.jar", "ext.acme.AcmeProvider", "acme");
        Path config = Files.writeString(tmp.resolve("factory.yaml"), """
                provider: acme
                providers:
                  acme:
                    greeting: howdy
                """);

        try (URLClassLoader loader = ProviderJars.loader(testLoader, jar);
             SandboxFactory factory = SandboxFactory.builder()
                     .classLoader(loader)
                     .config(config)
                     .environment(Map.of())
                     .stateDirectory(tmp.resolve("state"))
                     .build()) {
            DiscoveredProvider acme = factory.providers().stream().filter(p -> p.name().equals("acme")).findFirst().orElseThrow();
            assertThat(acme.location()).isEqualTo(jar.toString());
            assertThat(acme.providerClass().getName()).isEqualTo("ext.acme.AcmeProvider");
            assertThat(acme.providerClass().getClassLoader()).isSameAs(loader);
            assertThat(acme.configType().getName()).isEqualTo("ext.acme.AcmeProvider$Config");
            assertThat(factory.providerName()).isEqualTo("acme");

            MastraSandbox<?> sandbox = factory.sandbox(FactorySandboxContext.of("session-1"));

            assertThat(sandbox.id()).isEqualTo("session-1");
            assertThat(sandbox.executeCommand("echo", List.of("hi"), CommandOptions.defaults()).stdout())
                    .isEqualTo("howdy echo hi");
        }
    }

    @Test
    void twoJarsDeclaringOneNameFailNamingBothClassesAndJars() throws IOException {
        Path first = ProviderJars.providerJar(tmp, "one.jar", "ext.one.DupProvider", "dup");
        Path second = ProviderJars.providerJar(tmp, "two.jar", "ext.two.DupProvider", "dup");

        try (URLClassLoader loader = ProviderJars.loader(testLoader, first, second)) {
            assertThatThrownBy(() -> new ProviderDiscovery().discover(loader))
                    .isInstanceOf(FactoryConfigurationException.class)
                    .hasMessage("Sandbox provider discovery failed: Sandbox provider name 'dup' is declared twice:"
                            + " by ext.one.DupProvider (from " + first + ") and by ext.two.DupProvider (from " + second
                            + "); remove one of them from the class path.");
        }
    }

    @Test
    void anUnknownNameListsTheAvailableProvidersSorted() throws IOException {
        Path beta = ProviderJars.providerJar(tmp, "beta.jar", "ext.beta.BetaProvider", "beta");
        Path acme = ProviderJars.providerJar(tmp, "acme.jar", "ext.acme.AcmeProvider", "acme");

        try (URLClassLoader loader = ProviderJars.loader(new ServiceHidingClassLoader(testLoader), beta, acme)) {
            assertThatThrownBy(() -> SandboxFactory.builder()
                    .classLoader(loader)
                    .provider("nope")
                    .environment(Map.of())
                    .stateDirectory(tmp.resolve("state"))
                    .build())
                    .isInstanceOf(FactoryConfigurationException.class)
                    .hasMessage("Unknown sandbox provider 'nope'; available: [acme, beta]");
        }
        assertThat(tmp.resolve("state")).doesNotExist();
    }

    @Test
    void brokenServiceEntriesAreEachReportedNamingTheClassAndJar() throws IOException {
        Path jar = ProviderJars.in(tmp)
                .source("ext.bad.NotAProvider", "package ext.bad; public class NotAProvider { }")
                .source("ext.bad.ExplodingProvider", """
                        package ext.bad;
                        public class ExplodingProvider implements io.sandboxfactory.api.SandboxProvider<String> {
                            public ExplodingProvider() { throw new IllegalStateException("kaboom"); }
                            public String name() { return "exploding"; }
                            public Class<String> configType() { return String.class; }
                            public io.sandboxfactory.api.FactorySandbox open(String c, io.sandboxfactory.api.ProviderContext x) { return null; }
                        }
                        """)
                .service("ext.missing.Nope")
                .service("ext.bad.NotAProvider")
                .service("ext.bad.ExplodingProvider")
                .build("broken.jar");

        try (URLClassLoader loader = ProviderJars.loader(new ServiceHidingClassLoader(testLoader), jar)) {
            assertThatThrownBy(() -> new ProviderDiscovery().discover(loader))
                    .isInstanceOf(FactoryConfigurationException.class)
                    .satisfies(e -> assertThat(((FactoryConfigurationException) e).code()).isEqualTo("PROVIDER_DISCOVERY_FAILED"))
                    .hasMessageStartingWith("Sandbox provider discovery failed with 3 problems:")
                    .hasMessageContaining("Provider ext.missing.Nope not found (listed in META-INF/services of " + jar + ")")
                    .hasMessageContaining("ext.bad.NotAProvider does not implement io.sandboxfactory.api.SandboxProvider"
                            + " (listed in META-INF/services of " + jar + ")")
                    .hasMessageContaining("Provider ext.bad.ExplodingProvider could not be instantiated")
                    .hasMessageContaining("kaboom");
        }
    }

    @Test
    void anInvalidNameIsReportedWithTheClassAndTheName() throws IOException {
        Path jar = ProviderJars.providerJar(tmp, "shouty.jar", "ext.shouty.ShoutyProvider", "Shouty_Name");

        try (URLClassLoader loader = ProviderJars.loader(new ServiceHidingClassLoader(testLoader), jar)) {
            assertThatThrownBy(() -> new ProviderDiscovery().discover(loader))
                    .hasMessage("Sandbox provider discovery failed: Sandbox provider class ext.shouty.ShoutyProvider (from " + jar
                            + ") has invalid name 'Shouty_Name'; provider names must match [a-z][a-z0-9-]*.");
        }
    }

    @Test
    void aProvidersErrorCodeNamedAsOneOfTheFrameworkOrOfAnotherProviderFailsDiscovery() throws IOException {
        Path jar = ProviderJars.in(tmp)
                .source("ext.codes.QuotaProvider", codedProvider("QuotaProvider", "quota", "QUOTA_EXCEEDED, DESTROYED"))
                .source("ext.codes.RivalProvider", codedProvider("RivalProvider", "rival", "QUOTA_EXCEEDED, RIVAL_ONLY"))
                .service("ext.codes.QuotaProvider")
                .service("ext.codes.RivalProvider")
                .build("codes.jar");

        try (URLClassLoader loader = ProviderJars.loader(new ServiceHidingClassLoader(testLoader), jar)) {
            assertThatThrownBy(() -> new ProviderDiscovery().discover(loader))
                    .isInstanceOf(FactoryConfigurationException.class)
                    .satisfies(e -> assertThat(((FactoryConfigurationException) e).code()).isEqualTo("PROVIDER_DISCOVERY_FAILED"))
                    .hasMessageStartingWith("Sandbox provider discovery failed with 2 problems:")
                    .hasMessageContaining("Error code DESTROYED is declared by the framework (StandardErrorCode) and by sandbox"
                            + " provider 'quota' of ext.codes.QuotaProvider (from " + jar + ")")
                    .hasMessageContaining("Error code QUOTA_EXCEEDED is declared by sandbox provider 'quota' of"
                            + " ext.codes.QuotaProvider (from " + jar + ") and by sandbox provider 'rival' of ext.codes.RivalProvider"
                            + " (from " + jar + "); a module's codes need names no other module uses.")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("RIVAL_ONLY"));
        }
    }

    /** A provider whose own enum of codes holds {@code constants}, each of kind SANDBOX. */
    private static String codedProvider(String cls, String name, String constants) {
        return """
                package ext.codes;
                import io.sandboxfactory.api.*;
                import io.sandboxfactory.api.error.*;
                public class %s implements SandboxProvider<String> {
                    public enum Code implements ErrorCodeSupplier {
                        %s;
                        public ErrorCode toErrorCode() { return new ErrorCode(name(), ErrorKind.SANDBOX, "A test code."); }
                    }
                    public String name() { return "%s"; }
                    public Class<String> configType() { return String.class; }
                    public FactorySandbox open(String c, ProviderContext x) { return null; }
                    public java.util.List<ErrorCodeSupplier> errorCodes() { return java.util.List.of(Code.values()); }
                }
                """.formatted(cls, constants, name);
    }

    @Test
    void eachDiscoveryIsIndependent() {
        ProviderDiscovery discovery = new ProviderDiscovery();

        DiscoveredProviders first = discovery.discover(testLoader);
        DiscoveredProviders second = discovery.discover(testLoader);

        assertThat(first.names()).isEqualTo(second.names());
        assertThat(first.require("test-memory").provider()).isNotSameAs(second.require("test-memory").provider());
    }
}
