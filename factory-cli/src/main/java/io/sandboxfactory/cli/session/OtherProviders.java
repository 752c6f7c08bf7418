package io.sandboxfactory.cli.session;

import io.sandboxfactory.cli.FactoryLauncher;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionListener;

/**
 * Opens a factory of another provider than the one a command works with, so that {@code status}
 * and {@code list} can ask that provider about its own sessions. It shares the command's session
 * store; the caller closes it.
 */
@FunctionalInterface
public interface OtherProviders {

    /** No other provider can be asked: their sessions show as {@link SessionState#UNREACHABLE}. */
    OtherProviders NONE = (factory, provider) -> {
        throw new IllegalStateException("No other provider than '" + factory.providerName() + "' is reachable from here.");
    };

    /** A factory of {@code provider}, with the same config, state directory and store as {@code factory}. */
    SandboxFactory open(SandboxFactory factory, String provider);

    /** Builds them as {@code launcher} builds the command's factory, with {@code provider} instead. */
    static OtherProviders of(FactoryLauncher launcher) {
        return (factory, provider) -> launcher.builder(SessionListener.NONE, "cli").provider(provider)
                .sessionStore(factory.sessionStore()).build();
    }
}
