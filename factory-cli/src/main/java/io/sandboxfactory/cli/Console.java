package io.sandboxfactory.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

/** Where the CLI writes and what it reads from its surroundings; one per invocation. */
record Console(PrintStream out, PrintStream err, Map<String, String> environment) {

    Path workingDirectory() {
        return Path.of("").toAbsolutePath();
    }

    Path home() {
        return Path.of(System.getProperty("user.home"));
    }
}
