package io.sandboxfactory.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Makes the class loader providers are discovered with: the CLI's own class path plus every jar
 * in the plugin directories ({@code $FACTORY_PLUGINS}, then {@code <state dir>/plugins}). This is
 * how a third party's provider jar joins without rebuilding the CLI.
 */
final class PluginLoader {

    private PluginLoader() {
    }

    static ClassLoader loaderFor(List<Path> directories, ClassLoader parent) {
        List<URL> jars = new ArrayList<>();
        for (Path dir : directories) {
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> files = Files.list(dir)) {
                for (Path jar : files.filter(p -> p.getFileName().toString().endsWith(".jar")).sorted().toList()) {
                    jars.add(toUrl(jar));
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Could not list plugin directory " + dir + ": " + e.getMessage(), e);
            }
        }
        return jars.isEmpty() ? parent : new URLClassLoader("factory-plugins", jars.toArray(URL[]::new), parent);
    }

    private static URL toUrl(Path jar) {
        try {
            return jar.toAbsolutePath().toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("Plugin jar path " + jar + " cannot be turned into a URL.", e);
        }
    }
}
