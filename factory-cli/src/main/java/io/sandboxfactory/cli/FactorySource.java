package io.sandboxfactory.cli;

import io.sandboxfactory.cli.daemon.WarmFactories;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionListener;

/**
 * Where a command gets its {@link SandboxFactory}: built for the one command and closed after it,
 * or kept warm across commands by the factory daemon ({@link WarmFactories}).
 */
public interface FactorySource {

    /** Builds a factory per command and closes it when the command is done. */
    FactorySource PER_COMMAND = (launcher, listener) -> {
        SandboxFactory factory = launcher.open(listener);
        return new Use(factory, factory::close);
    };

    /** A factory for what {@code launcher} describes, reporting this command's progress to {@code listener}. */
    Use use(FactoryLauncher launcher, SessionListener listener);

    /** One command's use of a factory; closing it ends the use (and closes a factory built for it). */
    record Use(SandboxFactory factory, Runnable release) implements AutoCloseable {
        @Override
        public void close() {
            release.run();
        }
    }
}
