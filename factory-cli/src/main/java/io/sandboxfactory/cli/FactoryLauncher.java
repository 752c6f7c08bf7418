package io.sandboxfactory.cli;

import io.sandboxfactory.cli.daemon.DaemonAddress;
import io.sandboxfactory.cli.output.Console;
import io.sandboxfactory.cli.output.Logging;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.SandboxFactoryBuilder;
import io.sandboxfactory.core.session.SessionListener;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Builds the {@link SandboxFactory} a command works with, from the global options and the surroundings. */
public final class FactoryLauncher {

    private final Console console;
    private final GlobalOptions global;

    public FactoryLauncher(Console console, GlobalOptions global) {
        this.console = console;
        this.global = global;
    }

    /** Sends the framework's log to this command's stderr, then builds the factory of a command run in its own process. */
    public SandboxFactory open(SessionListener listener) {
        return open(listener, "cli");
    }

    /** The same, for commands that journal as having come from {@code origin} ({@code mcp}). */
    public SandboxFactory open(SessionListener listener, String origin) {
        // Read per line: the store's password is known once the factory is built.
        Logging.configure(global.verbose, console.err(), line -> console.redaction().apply(line));
        return build(listener, origin);
    }

    /**
     * Builds the factory; the log goes wherever it was configured to go.
     *
     * @param origin what the command journal records the commands of its sessions as coming from
     */
    public SandboxFactory build(SessionListener listener, String origin) {
        return learnedFrom(builder(listener, origin).build());
    }

    /** {@code factory}, after this invocation's output learned to mask its secrets (the store's password). */
    public SandboxFactory learnedFrom(SandboxFactory factory) {
        console.learned().learn(factory.redaction());
        return factory;
    }

    /** The builder {@link #build} builds with: config, flags, environment, plugins and token applied. */
    public SandboxFactoryBuilder builder(SessionListener listener, String origin) {
        SandboxFactoryBuilder builder = SandboxFactory.builder().commandOrigin(origin)
                .errorCodes(CliErrorCode.OWNER, List.of(CliErrorCode.values()))
                .environment(console.environment())
                .workingDirectory(console.workingDirectory());
        configFile().ifPresent(builder::config);
        if (global.provider != null) {
            builder.provider(global.provider);
        }
        if (global.stateDir != null) {
            builder.stateDirectory(console.workingDirectory().resolve(global.stateDir));
        }
        Path stateDirectory = stateDirectory();
        if (Files.isDirectory(stateDirectory)) {
            // Only in a state directory that exists: bad input must not leave a new directory behind.
            SqliteNativeLibrary.useCacheUnder(stateDirectory.resolve("cache"));
        }
        builder.classLoader(PluginLoader.loaderFor(pluginDirectories(), Main.class.getClassLoader()));
        builder.sessionListener(listener);
        repositoryToken().ifPresent(token -> builder.repositoryToken(() -> token));
        return builder;
    }

    /**
     * The Git token for sessions' repositories: {@code $GH_TOKEN}, else {@code $GITHUB_TOKEN}, as
     * GitHub's own tools read it. It reaches git only through the credential helper (never argv or
     * URLs), and commands in the session as {@code GH_TOKEN}.
     */
    private Optional<String> repositoryToken() {
        for (String name : new String[] {"GH_TOKEN", "GITHUB_TOKEN"}) {
            String value = console.environment().get(name);
            if (value != null && !value.isBlank()) {
                return Optional.of(value.strip());
            }
        }
        return Optional.empty();
    }

    /**
     * A digest of everything {@link #build} reads: two launchers with equal fingerprints build
     * equivalent factories, so a daemon may serve both with one. The environment (which may hold
     * tokens) goes into the digest only.
     */
    public String fingerprint() {
        MessageDigest digest = Digests.sha256();
        Optional<Path> config = configFile();
        Digests.add(digest, "config", config.map(Path::toString).orElse(""));
        config.ifPresent(file -> Digests.add(digest, "config-bytes", contentOf(file)));
        Digests.add(digest, "provider", global.provider == null ? "" : global.provider);
        Digests.add(digest, "state", stateDirectory().toString());
        for (Path dir : pluginDirectories()) {
            Digests.add(digest, "plugins", dir.toString());
        }
        for (PluginLoader.Plugin plugin : PluginLoader.pluginsIn(pluginDirectories())) {
            for (Path jar : plugin.jars()) {
                Digests.add(digest, "jar", plugin.name() + " " + jar.getFileName() + " " + sizeAndTime(jar));
            }
        }
        Digests.add(digest, "environment", DaemonAddress.environmentIdentity(console.environment()));
        return Digests.hex(digest);
    }

    private Optional<Path> configFile() {
        return new ConfigLocator(console.workingDirectory(), console.environment(), console.home()).locate(global.config);
    }

    /** {@code $FACTORY_PLUGINS} (a path list), then {@code <state dir>/plugins}. */
    private List<Path> pluginDirectories() {
        List<Path> dirs = new ArrayList<>();
        String fromEnv = console.environment().get("FACTORY_PLUGINS");
        if (fromEnv != null && !fromEnv.isBlank()) {
            for (String dir : fromEnv.split(File.pathSeparator)) {
                if (!dir.isBlank()) {
                    dirs.add(console.workingDirectory().resolve(dir));
                }
            }
        }
        dirs.add(stateDirectory().resolve("plugins"));
        return dirs;
    }

    /** The state directory the options or the environment name (a config file may still name another). */
    private Path stateDirectory() {
        return StateDirectories.named(global.stateDir, console.environment(), console.workingDirectory(), console.home());
    }

    private static String contentOf(Path file) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return "unreadable " + e;
        }
    }

    private static String sizeAndTime(Path file) {
        try {
            return Files.size(file) + "@" + Files.getLastModifiedTime(file).toMillis();
        } catch (IOException e) {
            return "unreadable";
        }
    }
}
