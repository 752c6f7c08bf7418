package io.sandboxfactory.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.stream.Stream;

/**
 * Makes the class loader providers (and session stores) are discovered with: the CLI's own class
 * path plus the plugins in the plugin directories ({@code $FACTORY_PLUGINS}, then {@code <state
 * dir>/plugins}). This is how a third party's provider jar joins without rebuilding the CLI.
 *
 * <p>A plugin is a jar directly in a plugin directory, or a sub-directory whose jars (a provider
 * and the libraries it bundles) form one plugin. Each plugin gets its own class loader, and sees of
 * the host only the SPI ({@link SpiClassLoader}): a plugin that bundles its own Jackson or HTTP
 * client gets its own, not ours, and two plugins bundling different versions of one library each
 * get theirs.
 */
public final class PluginLoader {

    private PluginLoader() {
    }

    /** One plugin: a name for its class loader and the jars it is made of. */
    public record Plugin(String name, List<Path> jars) {
    }

    public static ClassLoader loaderFor(List<Path> directories, ClassLoader host) {
        List<Plugin> plugins = pluginsIn(directories);
        if (plugins.isEmpty()) {
            return host;
        }
        SpiClassLoader spi = new SpiClassLoader(host);
        List<URLClassLoader> loaders = new ArrayList<>();
        for (Plugin plugin : plugins) {
            loaders.add(new URLClassLoader("plugin " + plugin.name(), plugin.jars().stream().map(PluginLoader::toUrl).toArray(URL[]::new), spi));
        }
        return new PluginsClassLoader(host, loaders);
    }

    /** The plugins in {@code directories}, in order: each directory's jars, then its sub-directories, by name. */
    public static List<Plugin> pluginsIn(List<Path> directories) {
        List<Plugin> plugins = new ArrayList<>();
        for (Path dir : directories) {
            if (!Files.isDirectory(dir)) {
                continue;
            }
            for (Path entry : sortedEntries(dir)) {
                if (isJar(entry)) {
                    plugins.add(new Plugin(entry.getFileName().toString(), List.of(entry)));
                } else if (Files.isDirectory(entry)) {
                    List<Path> jars = sortedEntries(entry).stream().filter(PluginLoader::isJar).toList();
                    if (!jars.isEmpty()) {
                        plugins.add(new Plugin(entry.getFileName() + "/", jars));
                    }
                }
            }
        }
        return plugins;
    }

    private static boolean isJar(Path path) {
        return path.getFileName().toString().endsWith(".jar") && Files.isRegularFile(path);
    }

    private static List<Path> sortedEntries(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not list plugin directory " + dir + ": " + e.getMessage(), e);
        }
    }

    private static URL toUrl(Path jar) {
        try {
            return jar.toAbsolutePath().toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("Plugin jar path " + jar + " cannot be turned into a URL.", e);
        }
    }

    /**
     * What every plugin's loader delegates to: the JDK, plus from the host only the packages a
     * plugin is written against — the provider SPI ({@code factory-api}), the session-store SPI
     * ({@code factory-store-api}) and the SLF4J API, so a plugin's logs go where the host's go.
     * Nothing else of the host, and no host resource, is visible: a store's JDBC driver, pool and
     * {@code store-jdbc-support} are the plugin's own.
     */
    static final class SpiClassLoader extends ClassLoader {

        private static final List<String> SHARED = List.of("io.sandboxfactory.api.", "io.sandboxfactory.store.api.", "org.slf4j.");

        static {
            registerAsParallelCapable();
        }

        private final ClassLoader host;

        SpiClassLoader(ClassLoader host) {
            super("factory-spi", ClassLoader.getPlatformClassLoader());
            this.host = host;
        }

        static boolean shared(String className) {
            return SHARED.stream().anyMatch(className::startsWith) && !className.startsWith("org.slf4j.impl.");
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (shared(name)) {
                return host.loadClass(name);
            }
            return super.loadClass(name, resolve);
        }
    }

    /**
     * The host's class path first, then each plugin's own classes and resources. Discovery reads
     * every plugin's {@code META-INF/services} through it and loads each listed class from the
     * plugin that has it, so the class, and everything it links to, belongs to that plugin's loader.
     */
    static final class PluginsClassLoader extends ClassLoader {

        static {
            registerAsParallelCapable();
        }

        private final List<URLClassLoader> plugins;

        PluginsClassLoader(ClassLoader host, List<URLClassLoader> plugins) {
            super("factory-plugins", host);
            this.plugins = List.copyOf(plugins);
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            for (URLClassLoader plugin : plugins) {
                if (plugin.findResource(name.replace('.', '/') + ".class") != null) {
                    return plugin.loadClass(name);
                }
            }
            throw new ClassNotFoundException(name);
        }

        @Override
        protected URL findResource(String name) {
            for (URLClassLoader plugin : plugins) {
                URL found = plugin.findResource(name);
                if (found != null) {
                    return found;
                }
            }
            return null;
        }

        @Override
        protected Enumeration<URL> findResources(String name) throws IOException {
            List<URL> found = new ArrayList<>();
            for (URLClassLoader plugin : plugins) {
                found.addAll(Collections.list(plugin.findResources(name)));
            }
            return Collections.enumeration(found);
        }
    }
}
