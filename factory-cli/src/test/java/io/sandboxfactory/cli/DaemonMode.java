package io.sandboxfactory.cli;

import java.nio.file.Path;

/**
 * The two ways a CLI command runs: in a process of its own, or handed to the factory daemon. The
 * daemon is an accelerator, never a behaviour, so the CLI integration tests run in both.
 */
enum DaemonMode {
    OFF,
    ON;

    CliProcess cli(Path stateDirectory) {
        CliProcess cli = new CliProcess(stateDirectory);
        return this == ON ? cli.withDaemon() : cli;
    }
}
