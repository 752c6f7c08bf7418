package io.sandboxfactory.cli;

import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionListener;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Builds the {@link SandboxFactory} a command works with, from the global options and the surroundings. */
final class FactoryLauncher {

    private final Console console;
    private final GlobalOptions global;

    FactoryLauncher(Console console, GlobalOptions global) {
        this.console = console;
        this.global = global;
    }

    SandboxFactory open(SessionListener listener) {
        Logging.configure(global.verbose, console.err());
        SandboxFactory.Builder builder = SandboxFactory.builder().environment(console.environment());
        new ConfigLocator(console.workingDirectory(), console.environment(), console.home())
                .locate(global.config).ifPresent(builder::config);
        if (global.provider != null) {
            builder.provider(global.provider);
        }
        if (global.stateDir != null) {
            builder.stateDirectory(console.workingDirectory().resolve(global.stateDir));
        }
        Path stateDirectory = stateDirectoryGuess();
        if (Files.isDirectory(stateDirectory)) {
            // Only in a state directory that exists: bad input must not leave a new directory behind.
            SqliteNativeLibrary.useCacheUnder(stateDirectory.resolve("cache"));
        }
        builder.classLoader(PluginLoader.loaderFor(pluginDirectories(), Main.class.getClassLoader()));
        builder.sessionListener(listener);
        return builder.build();
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
        dirs.add(stateDirectoryGuess().resolve("plugins"));
        return dirs;
    }

    private Path stateDirectoryGuess() {
        if (global.stateDir != null) {
            return console.workingDirectory().resolve(global.stateDir);
        }
        String fromEnv = console.environment().get("FACTORY_STATE_DIR");
        if (fromEnv != null && !fromEnv.isBlank()) {
            return console.workingDirectory().resolve(fromEnv);
        }
        return console.home().resolve(".sandbox-factory");
    }
}
