package io.sandboxfactory.cli.daemon;

import io.sandboxfactory.cli.output.Logging;
import io.sandboxfactory.core.session.Redaction;

import java.io.PrintStream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * Where the factory daemon's log goes: what a request's thread logs to that request's client
 * (debug records only to a {@code --verbose} one, so no caller sees another's), everything else to
 * the daemon's own log. The loggers produce debug records only while a verbose request runs.
 */
final class RequestLogs {

    private final Logging.Route daemon;
    private final Map<Thread, Logging.Route> byThread = new ConcurrentHashMap<>();
    /** Guarded by {@code this}. */
    private int verboseRequests;

    RequestLogs(PrintStream daemonLog) {
        // The daemon's own log knows no caller's variables: token shapes are what it can mask.
        this.daemon = new Logging.Route(daemonLog, false, Redaction.shapes());
    }

    /** Makes this the framework's log routing. */
    void install() {
        Logging.configure(thread -> byThread.getOrDefault(thread, daemon));
        Logging.setVerbose(false);
    }

    /** Sends what {@code thread} logs to {@code err}, masked with {@code redaction}, until {@link #end}. */
    void begin(Thread thread, PrintStream err, boolean verbose, UnaryOperator<String> redaction) {
        byThread.put(thread, new Logging.Route(err, verbose, redaction));
        if (verbose) {
            synchronized (this) {
                if (verboseRequests++ == 0) {
                    Logging.setVerbose(true);
                }
            }
        }
    }

    void end(Thread thread) {
        Logging.Route route = byThread.remove(thread);
        if (route != null && route.verbose()) {
            synchronized (this) {
                if (--verboseRequests == 0) {
                    Logging.setVerbose(false);
                }
            }
        }
    }
}
