package io.sandboxfactory.cli;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariConfig;
import io.sandboxfactory.core.FactoryConfigurationException;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.store.api.Fence;
import io.sandboxfactory.store.api.JournalEntry;
import io.sandboxfactory.store.api.LeaseAttempt;
import io.sandboxfactory.store.api.LeaseOwner;
import io.sandboxfactory.store.api.SessionDefinition;
import io.sandboxfactory.store.api.SessionStore;
import io.sandboxfactory.store.jdbc.SessionRows;
import io.sandboxfactory.store.postgres.PostgresStoreProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The project's own PostgreSQL store ships as a plugin like a third party's: its jar and its
 * libraries in a directory of their own under a plugin directory, loaded by {@link PluginLoader}
 * into a class loader that sees of the factory only the SPI packages ({@code factory-api},
 * {@code factory-store-api}, SLF4J). The factory here runs on a host class path without the
 * store-postgres jar, so the store it opens on the shared test server can only be the plugin's.
 */
class PostgresStorePluginTest {

    @TempDir
    Path tmp;

    /** This class path without store-postgres: the CLI's class path as a host that does not bundle it. */
    private final ClassLoader host = new WithoutStorePostgres(PostgresStorePluginTest.class.getClassLoader());

    @BeforeAll
    static void server() {
        TestPostgresStore.requireServer();
    }

    @Test
    void theStoreLoadedFromAPluginDirectoryKeepsSessionsAndLeasesInPostgresql() throws Exception {
        Path plugins = storePostgresPlugin();
        ClassLoader loader = PluginLoader.loaderFor(List.of(plugins), host);

        try (SandboxFactory factory = factory(loader, "a")) {
            SessionStore store = factory.sessionStore();
            ClassLoader plugin = store.getClass().getClassLoader();
            assertThat(store.getClass().getName()).isEqualTo("io.sandboxfactory.store.postgres.PostgresSessionStore");
            assertThat(plugin).as("the store's own loader, not the host's").isNotSameAs(host).isNotSameAs(loader)
                    .isNotSameAs(PostgresStorePluginTest.class.getClassLoader());
            assertThat(plugin.getName()).isEqualTo("plugin store-postgres/");
            for (String bundled : List.of("org.postgresql.Driver", "com.zaxxer.hikari.HikariConfig", "io.sandboxfactory.store.jdbc.SessionRows",
                    "com.fasterxml.jackson.databind.ObjectMapper")) {
                assertThat(Class.forName(bundled, false, plugin).getClassLoader()).as(bundled + " comes from the plugin").isSameAs(plugin);
            }
            assertThat(Class.forName(SessionStore.class.getName(), false, plugin)).as("the SPI is the host's").isSameAs(SessionStore.class);

            store.register(SessionDefinition.builder("plugged", "owner/repo", "work").baseBranch("main").setupCommands(List.of("make"))
                    .provider("local").labels(Map.of("team", "a")).build());
            LeaseOwner owner = LeaseOwner.forThisProcess();
            LeaseAttempt lease = store.tryAcquireLease("plugged", owner, Duration.ofSeconds(5));
            assertThat(lease.acquired()).isTrue();
            store.appendJournal(new JournalEntry("plugged", Instant.now(), Duration.ofMillis(5), "cli", "echo hi", 0, false, "hi\n", ""), 10);
            store.releaseLease("plugged", owner.id(), new Fence(lease.fencingToken()));

            try (SandboxFactory other = factory(loader, "b")) {
                assertThat(other.sessionStore().find("plugged")).as("a second factory reads what the first wrote, on the server")
                        .get().satisfies(r -> assertThat(r.definition().labels()).containsEntry("team", "a"));
                assertThat(other.sessionStore().journal("plugged", 5)).extracting(JournalEntry::command).containsExactly("echo hi");
                assertThat(other.sessionStore().tryAcquireLease("plugged", LeaseOwner.forThisProcess(), Duration.ofSeconds(5))
                        .fencingToken()).as("the next token, after the plugin store's first").isEqualTo(lease.fencingToken() + 1);
            }
        }
    }

    @Test
    void withoutThePluginTheHostHasNoPostgresStore() {
        assertThatThrownBy(() -> factory(PluginLoader.loaderFor(List.of(tmp.resolve("no-plugins")), host), "none"))
                .isInstanceOf(FactoryConfigurationException.class)
                .hasMessage("Unknown session store type 'postgres'; available: [sqlite] (the postgres store is the store-postgres jar).");
    }

    /** One store schema for every factory of the test, as the hosts of one deployment share it. */
    private final Map<String, String> storeVariables = TestPostgresStore.variables(TestPostgresStore.SERVER_PORT, "plugin");

    private SandboxFactory factory(ClassLoader loader, String name) throws IOException {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.keySet().removeIf(k -> k.startsWith("FACTORY_"));
        env.putAll(storeVariables);
        return SandboxFactory.builder().classLoader(loader).provider("local").environment(env)
                .stateDirectory(Files.createDirectories(tmp.resolve("state-" + name))).build();
    }

    /**
     * {@code plugins/store-postgres/}: the store's jar and the libraries it links, as a deployment
     * assembles it. Neither factory-api nor factory-store-api nor SLF4J: the host shares those.
     */
    private Path storePostgresPlugin() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("plugins/store-postgres"));
        for (Class<?> library : List.of(PostgresStoreProvider.class, SessionRows.class, org.postgresql.Driver.class, HikariConfig.class,
                ObjectMapper.class, JsonFactory.class, JsonProperty.class)) {
            Path location = location(library);
            Path jar = dir.resolve(Files.isDirectory(location) ? library.getPackageName() + ".jar" : location.getFileName().toString());
            if (Files.isDirectory(location)) {
                jarOf(location, jar);
            } else {
                Files.copy(location, jar);
            }
        }
        return dir.getParent();
    }

    private static Path location(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A module's {@code target/classes} (a reactor build without its jar yet) as the jar it becomes. */
    private static void jarOf(Path classes, Path jar) throws IOException {
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar)); Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(file).toString().replace('\\', '/')));
                Files.copy(file, out);
                out.closeEntry();
            }
        }
    }

    /** The test's class loader with store-postgres's classes and resources (its services file) hidden. */
    private static final class WithoutStorePostgres extends ClassLoader {

        /** The jar or directory of store-postgres, as the class loader's URLs spell it. */
        private final String hidden = PostgresStoreProvider.class.getProtectionDomain().getCodeSource().getLocation().toString();

        WithoutStorePostgres(ClassLoader parent) {
            super("host-without-store-postgres", parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith(PostgresStoreProvider.class.getPackageName() + ".")) {
                throw new ClassNotFoundException(name);
            }
            return super.loadClass(name, resolve);
        }

        @Override
        public URL getResource(String name) {
            URL found = super.getResource(name);
            return found == null || isHidden(found) ? null : found;
        }

        @Override
        public Enumeration<URL> getResources(String name) throws IOException {
            return Collections.enumeration(Collections.list(super.getResources(name)).stream().filter(url -> !isHidden(url)).toList());
        }

        private boolean isHidden(URL url) {
            String text = url.toString();
            return text.startsWith(hidden) || text.startsWith("jar:" + hidden);
        }
    }
}
