package io.sandboxfactory.cli.client;

import io.sandboxfactory.cli.Main;
import io.sandboxfactory.cli.daemon.DaemonClient;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalInt;

/**
 * Entry point of the {@code factory} command: the minimal client. It answers {@code --version}
 * itself and hands every command the factory daemon serves to a listening daemon (arguments,
 * working directory and environment; output and exit code stream back), loading only this
 * package, the daemon's client side and the JDK: no picocli, Jackson, Guice or SLF4J, so that such
 * a command costs little more than a JVM start. Anything else (no daemon, a command the daemon does
 * not serve, a daemon that declines) it hands over to the full CLI ({@link Main}) in this same JVM.
 */
public final class FactoryClient {

    private static final String SELECTOR_PROVIDER = "java.nio.channels.spi.SelectorProvider";
    /** The JDK's own selector provider on Linux, which it would otherwise pick after the search below. */
    private static final String LINUX_SELECTOR_PROVIDER = "sun.nio.ch.EPollSelectorProvider";

    private FactoryClient() {
    }

    public static void main(String[] args) {
        nameTheSelectorProvider();
        Map<String, String> environment = System.getenv();
        DaemonClient daemon = DaemonClient.of(args, environment, Path.of("").toAbsolutePath(), Path.of(System.getProperty("user.home")));
        OptionalInt answered = answer(args, daemon, System.out, System.err);
        // A direct call, no method reference: linking one would cost this path a few milliseconds.
        System.exit(answered.isPresent() ? answered.getAsInt() : Main.inProcess(args, daemon));
    }

    /**
     * Names the JDK's own selector provider before the first socket is opened, unless the user named
     * one: without a name the JDK looks for provider services in every jar of the class path, and
     * reading factory.jar's index (about 29,000 entries) costs the client about 10 ms. The class path
     * offers none (factory.jar has no such service), so the provider is the one the JDK would pick.
     */
    static void nameTheSelectorProvider() {
        if (System.getProperty(SELECTOR_PROVIDER) != null) {
            return;
        }
        try {
            Class.forName(LINUX_SELECTOR_PROVIDER, false, null);
            System.setProperty(SELECTOR_PROVIDER, LINUX_SELECTOR_PROVIDER);
        } catch (ClassNotFoundException notLinux) {
            // Another platform's JDK: it searches the class path, as without this client.
        }
    }

    /**
     * The exit code of the command line when this client answered it (the version, or the daemon
     * ran it); empty when the full CLI must run it.
     */
    static OptionalInt answer(String[] args, DaemonClient daemon, PrintStream out, PrintStream err) {
        if (VersionLine.asked(args)) {
            out.println(VersionLine.text());
            out.flush();
            return OptionalInt.of(0);
        }
        return daemon.runThroughDaemon(args, out, err);
    }
}
