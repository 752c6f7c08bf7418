package io.sandboxfactory.cli;

import java.io.PrintStream;
import java.util.function.Function;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Routes the framework's log (SLF4J over java.util.logging) to stderr as one line per record:
 * warnings and errors normally, everything with {@code --verbose}.
 */
final class Logging {

    private Logging() {
    }

    static void configure(boolean verbose, PrintStream err) {
        configure(verbose, thread -> err);
    }

    /**
     * Routes each record to the stream {@code streamFor} gives the logging thread: the factory
     * daemon sends what a request's thread logs to that request's client.
     */
    static void configure(boolean verbose, Function<Thread, PrintStream> streamFor) {
        Logger root = Logger.getLogger("");
        for (Handler handler : root.getHandlers()) {
            root.removeHandler(handler);
        }
        Level level = verbose ? Level.FINE : Level.WARNING;
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (isLoggable(record)) {
                    PrintStream stream = streamFor.apply(Thread.currentThread());
                    stream.print(getFormatter().format(record));
                    stream.flush();
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
        handler.setLevel(level);
        root.addHandler(handler);
        root.setLevel(level);
        Logger.getLogger("io.sandboxfactory").setLevel(level);
    }

    private static final class OneLine extends Formatter {
        @Override
        public String format(LogRecord record) {
            String level = record.getLevel().intValue() >= Level.SEVERE.intValue() ? "error"
                    : record.getLevel().intValue() >= Level.WARNING.intValue() ? "warning" : "debug";
            StringBuilder line = new StringBuilder("factory: ").append(level).append(": ").append(formatMessage(record));
            if (record.getThrown() != null && record.getLevel().intValue() < Level.WARNING.intValue()) {
                line.append(" (").append(record.getThrown()).append(')');
            }
            return line.append(System.lineSeparator()).toString();
        }
    }
}
