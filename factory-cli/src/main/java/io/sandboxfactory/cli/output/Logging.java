package io.sandboxfactory.cli.output;

import io.sandboxfactory.core.session.Redaction;
import java.io.PrintStream;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Routes the framework's log (SLF4J over java.util.logging) to stderr as one line per record, its
 * secrets masked ({@link Redaction}):
 * warnings and errors normally, the factory's own debug records too with {@code --verbose}. A library's housekeeping that
 * failed without any effect on the command, and the session store's pool and driver, count as debug
 * (see {@link #housekeeping}, {@link #storeDriver}).
 */
public final class Logging {

    private Logging() {
    }

    public static void configure(boolean verbose, PrintStream err, UnaryOperator<String> redaction) {
        Route route = new Route(err, verbose, redaction);
        configure(thread -> route);
        setVerbose(verbose);
    }

    /** Where the records of one thread go, whether its debug records go there too, and what each line is masked with. */
    public record Route(PrintStream stream, boolean verbose, UnaryOperator<String> redaction) {
    }

    /**
     * Routes each record to the {@link Route} {@code routeFor} gives the logging thread: the factory
     * daemon sends what a request's thread logs to that request's client, debug records only to a
     * client that asked for them. Debug records are produced at all only after {@link #setVerbose}.
     */
    public static void configure(Function<Thread, Route> routeFor) {
        Logger root = Logger.getLogger("");
        for (Handler handler : root.getHandlers()) {
            root.removeHandler(handler);
        }
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                Route route = routeFor.apply(Thread.currentThread());
                if (isLoggable(record) && (route.verbose() || level(record).intValue() >= Level.WARNING.intValue())) {
                    route.stream().print(route.redaction().apply(getFormatter().format(record)));
                    route.stream().flush();
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        handler.setFormatter(new OneLine());
        handler.setLevel(Level.FINE);
        root.addHandler(handler);
    }

    /**
     * Whether the factory's loggers produce debug records; without them a debug call costs next to
     * nothing. Libraries stay at warnings either way: their debug records (Guice's binding timings,
     * the pool's housekeeping) would bury the factory's own under dozens of lines.
     */
    public static void setVerbose(boolean verbose) {
        Logger.getLogger("").setLevel(Level.WARNING);
        Logger.getLogger("io.sandboxfactory").setLevel(verbose ? Level.FINE : Level.WARNING);
    }

    private static Level level(LogRecord record) {
        return housekeeping(record) || storeDriver(record) ? Level.FINE : record.getLevel();
    }

    /**
     * Whether a record is the session store's pool's or driver's own (HikariCP, pgjdbc): during an
     * outage they warn about every connection they drop or cannot make, while the factory reports the
     * same failure once, in its own sentence with what to do. So theirs count as debug: {@code
     * --verbose} shows them, nothing else does.
     */
    private static boolean storeDriver(LogRecord record) {
        String logger = record.getLoggerName();
        return logger != null && (logger.startsWith("com.zaxxer.hikari") || logger.startsWith("org.postgresql"));
    }

    /**
     * Whether a record reports a library's housekeeping for other processes, which no user of this
     * command needs to act on. sqlite-jdbc, on loading, deletes the native libraries other JVMs
     * extracted to the temp directory and left without their lock file; when one of them is exiting
     * and deleting its own at that moment, the delete here fails and is logged as an error.
     */
    private static boolean housekeeping(LogRecord record) {
        return "org.sqlite.SQLiteJDBCLoader".equals(record.getLoggerName()) && "Failed to delete old native lib".equals(record.getMessage());
    }

    private static final class OneLine extends Formatter {
        @Override
        public String format(LogRecord record) {
            Level level = level(record);
            String label = level.intValue() >= Level.SEVERE.intValue() ? "error"
                    : level.intValue() >= Level.WARNING.intValue() ? "warning" : "debug";
            StringBuilder line = new StringBuilder("factory: ").append(label).append(": ").append(formatMessage(record));
            if (record.getThrown() != null && level.intValue() < Level.WARNING.intValue()) {
                line.append(" (").append(record.getThrown()).append(')');
            }
            return line.append(System.lineSeparator()).toString();
        }
    }
}
