package io.sandboxfactory.cli.output;

import io.sandboxfactory.core.session.Redaction;
import io.sandboxfactory.cli.FactorySource;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where the CLI writes and what it reads from its surroundings; one per invocation. In the factory
 * daemon these are the calling client's, not the daemon process's own.
 *
 * @param factories where commands that run in a session get their factory
 * @param learned what the factories this invocation used said to mask (see {@link io.sandboxfactory.cli.FactoryLauncher})
 */
public record Console(PrintStream out, PrintStream err, Map<String, String> environment, Path workingDirectory, Path home,
               FactorySource factories, LearnedSecrets learned) {

    /** This process's own surroundings; each command builds its own factory. */
    public Console(PrintStream out, PrintStream err, Map<String, String> environment) {
        this(out, err, environment, Path.of("").toAbsolutePath(), Path.of(System.getProperty("user.home")),
                FactorySource.PER_COMMAND);
    }

    /** A new invocation's surroundings: nothing learned yet. */
    public Console(PrintStream out, PrintStream err, Map<String, String> environment, Path workingDirectory, Path home,
                   FactorySource factories) {
        this(out, err, environment, workingDirectory, home, factories, new LearnedSecrets());
    }

    /**
     * What output of this invocation is redacted with: the values of this environment's secret
     * variables ({@code GH_TOKEN}, the store password's variable, …), what the factories it used
     * said to mask (the store's password under whatever variable the config names) and token shapes.
     */
    public Redaction redaction() {
        return Redaction.ofEnvironment(environment).and(learned.redaction());
    }
}
