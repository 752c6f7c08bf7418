package io.sandboxfactory.core.testing;

import io.sandboxfactory.api.SandboxProvider;

import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * Builds provider jars at test time, the way a third party would: compiles sources with the
 * system Java compiler against the factory-api classes, writes {@code META-INF/services} and
 * packages a real jar. Nothing here is part of the reactor.
 */
public final class ProviderJars {

    private final Path workDir;
    private final Map<String, String> sources = new LinkedHashMap<>();
    private final List<String> serviceEntries = new ArrayList<>();

    private ProviderJars(Path workDir) {
        this.workDir = workDir;
    }

    public static ProviderJars in(Path workDir) {
        return new ProviderJars(workDir);
    }

    /** Adds a source for {@code className} (fully qualified). */
    public ProviderJars source(String className, String source) {
        sources.put(className, source);
        return this;
    }

    /** Adds a line to the jar's services file (it need not name a real class). */
    public ProviderJars service(String line) {
        serviceEntries.add(line);
        return this;
    }

    /** Compiles the sources and writes {@code <workDir>/<jarName>}. */
    public Path build(String jarName) {
        try {
            Path root = Files.createDirectories(workDir.resolve(jarName + "-build"));
            Path src = Files.createDirectories(root.resolve("src"));
            Path classes = Files.createDirectories(root.resolve("classes"));
            List<Path> files = new ArrayList<>();
            for (Map.Entry<String, String> entry : sources.entrySet()) {
                Path file = src.resolve(entry.getKey().replace('.', '/') + ".java");
                Files.createDirectories(file.getParent());
                Files.writeString(file, entry.getValue());
                files.add(file);
            }
            if (!files.isEmpty()) {
                compile(files, classes);
            }
            Path jar = workDir.resolve(jarName);
            writeJar(classes, jar);
            return jar;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void compile(List<Path> files, Path classes) throws IOException {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null) {
            throw new IllegalStateException("No system Java compiler: run the tests on a JDK.");
        }
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager fm = compiler.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
            List<String> options = List.of("--release", "17", "-classpath", apiClasses().toString(), "-d", classes.toString());
            boolean ok = compiler.getTask(null, fm, diagnostics, options, null, fm.getJavaFileObjectsFromPaths(files)).call();
            if (!ok) {
                throw new IllegalStateException("Test provider sources did not compile: " + diagnostics.getDiagnostics());
            }
        }
    }

    private static Path apiClasses() {
        try {
            return Path.of(SandboxProvider.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private void writeJar(Path classes, Path jar) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().putValue("Manifest-Version", "1.0");
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream jarOut = new JarOutputStream(out, manifest);
             Stream<Path> walk = Files.walk(classes)) {
            for (Path file : walk.filter(Files::isRegularFile).sorted().toList()) {
                jarOut.putNextEntry(new JarEntry(classes.relativize(file).toString().replace('\\', '/')));
                Files.copy(file, jarOut);
                jarOut.closeEntry();
            }
            if (!serviceEntries.isEmpty()) {
                jarOut.putNextEntry(new JarEntry("META-INF/services/" + SandboxProvider.class.getName()));
                jarOut.write((String.join("\n", serviceEntries) + "\n").getBytes(StandardCharsets.UTF_8));
                jarOut.closeEntry();
            }
        }
    }

    /** A loader over {@code jars} whose parent is {@code parent}. */
    public static URLClassLoader loader(ClassLoader parent, Path... jars) {
        URL[] urls = new URL[jars.length];
        for (int i = 0; i < jars.length; i++) {
            try {
                urls[i] = jars[i].toUri().toURL();
            } catch (MalformedURLException e) {
                throw new IllegalStateException(e);
            }
        }
        return new URLClassLoader(urls, parent);
    }

    /**
     * The source of a complete provider {@code pkg.cls} named {@code name}: config record {@code
     * Config(String greeting)}, no capabilities, in-memory sandboxes whose commands print
     * {@code <greeting> <command line>}.
     */
    public static String providerSource(String pkg, String cls, String name) {
        return """
                package %1$s;

                import io.sandboxfactory.api.*;
                import java.time.Duration;
                import java.util.Optional;
                import java.util.Set;

                public class %2$s implements SandboxProvider<%2$s.Config> {
                    public record Config(String greeting) {
                        public Config {
                            greeting = greeting == null ? "hello" : greeting;
                        }
                    }

                    public String name() { return "%3$s"; }
                    public Class<Config> configType() { return Config.class; }
                    public String description() { return "built at test time"; }

                    public FactorySandbox open(Config config, ProviderContext context) {
                        return new FactorySandbox() {
                            public MastraSandbox<?> create(FactorySandboxContext ctx) { return new Box(ctx.sessionId(), config.greeting()); }
                            public Set<SandboxCapability> capabilities() { return Set.of(); }
                        };
                    }

                    static final class Box extends MastraSandbox<String> {
                        private final String greeting;
                        Box(String id, String greeting) { super(id, id); this.greeting = greeting; }
                        protected Optional<String> find() { return Optional.empty(); }
                        protected void connect(String handle) { }
                        protected String create() { return "box-" + id(); }
                        protected void doStop(String handle) { }
                        protected void doDestroy(String handle) { }
                        protected CommandResult doExecute(CommandRequest r) {
                            return new CommandResult(0, greeting + " " + r.commandLine(), "", Duration.ZERO, false, false, false, r.commandLine());
                        }
                        public Optional<String> workingDirectory() { return Optional.empty(); }
                    }
                }
                """.formatted(pkg, cls, name);
    }

    /** A jar holding one complete provider (see {@link #providerSource}). */
    public static Path providerJar(Path workDir, String jarName, String className, String name) {
        int dot = className.lastIndexOf('.');
        return in(workDir)
                .source(className, providerSource(className.substring(0, dot), className.substring(dot + 1), name))
                .service(className)
                .build(jarName);
    }
}
