package io.sandboxfactory.cli;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.SandboxProvider;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.DiscoveredProvider;
import io.sandboxfactory.core.testing.ProviderJars;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Plugins are isolated from each other and from the host: each plugin jar (or sub-directory of
 * jars) has its own class loader that sees only the host's SPI. The plugins here are built at test
 * time, as a third party builds them, each bundling its own version of one library class.
 */
class PluginIsolationTest {

    @TempDir
    Path tmp;

    private final ClassLoader host = PluginIsolationTest.class.getClassLoader();

    @Test
    void twoPluginsBundlingDifferentVersionsOfOneLibraryEachRunTheirOwnInOneProcess() throws Exception {
        Path plugins = Files.createDirectories(tmp.resolve("plugins"));
        plugin(plugins, "a.jar", "ext.a.AProvider", "plugin-a", "1.0");
        plugin(Files.createDirectories(plugins.resolve("b")), "b-provider.jar", "ext.b.BProvider", "plugin-b", "2.0");
        ClassLoader loader = PluginLoader.loaderFor(List.of(plugins), host);

        for (String[] expected : new String[][] {{"plugin-a", "1.0"}, {"plugin-b", "2.0"}}) {
            try (SandboxFactory factory = factory(loader, expected[0])) {
                DiscoveredProvider found = factory.providers().stream().filter(p -> p.name().equals(expected[0])).findFirst().orElseThrow();
                assertThat(found.description()).isEqualTo("bundles lib " + expected[1] + "; host Jackson hidden");
                assertThat(found.providerClass().getClassLoader()).isNotSameAs(host).isNotSameAs(loader);

                var sandbox = factory.sandbox(FactorySandboxContext.of("s1"));
                assertThat(sandbox.executeCommand("echo", List.of("hi"), CommandOptions.defaults()).stdout())
                        .isEqualTo("hello lib " + expected[1] + " echo hi");
            }
        }
    }

    @Test
    void pluginsShareTheHostsSpiClassesAndLoadEachListedClassFromTheirOwnJar() throws Exception {
        Path plugins = Files.createDirectories(tmp.resolve("plugins"));
        Path a = plugin(plugins, "a.jar", "ext.a.AProvider", "plugin-a", "1.0");
        ClassLoader loader = PluginLoader.loaderFor(List.of(plugins), host);

        Class<?> provider = Class.forName("ext.a.AProvider", false, loader);

        assertThat(SandboxProvider.class.isAssignableFrom(provider)).as("the plugin's provider implements the host's SPI").isTrue();
        assertThat(Class.forName("org.slf4j.Logger", false, provider.getClassLoader())).isSameAs(org.slf4j.Logger.class);
        assertThat(provider.getProtectionDomain().getCodeSource().getLocation().getPath()).isEqualTo(a.toUri().getPath());
        assertThat(Class.forName("ext.lib.Version", false, provider.getClassLoader()).getClassLoader()).isSameAs(provider.getClassLoader());
    }

    @Test
    void withoutPluginsTheHostLoaderIsUsedAsItIs() throws Exception {
        assertThat(PluginLoader.loaderFor(List.of(tmp.resolve("none"), Files.createDirectories(tmp.resolve("empty"))), host)).isSameAs(host);
    }

    private SandboxFactory factory(ClassLoader loader, String provider) throws Exception {
        return SandboxFactory.builder().classLoader(loader).provider(provider).environment(Map.of())
                .stateDirectory(tmp.resolve("state-" + provider)).build();
    }

    /** A plugin jar whose provider uses its own copy of {@code ext.lib.Version}, answering {@code version}. */
    private static Path plugin(Path dir, String jarName, String className, String name, String version) {
        int dot = className.lastIndexOf('.');
        String source = ProviderJars.providerSource(className.substring(0, dot), className.substring(dot + 1), name)
                .replace("return \"built at test time\";", "return \"bundles lib \" + ext.lib.Version.value() + \"; host Jackson \" + jackson();")
                .replace("greeting + \" \" + r.commandLine()", "greeting + \" lib \" + ext.lib.Version.value() + \" \" + r.commandLine()")
                .replace("    public String name()", """
                            static String jackson() {
                                try {
                                    Class.forName("com.fasterxml.jackson.databind.ObjectMapper");
                                    return "visible";
                                } catch (ClassNotFoundException e) {
                                    return "hidden";
                                }
                            }

                            public String name()""");
        return ProviderJars.in(dir)
                .source(className, source)
                .source("ext.lib.Version", """
                        package ext.lib;

                        public final class Version {
                            public static String value() { return "%s"; }
                        }
                        """.formatted(version))
                .service(className)
                .build(jarName);
    }
}
