package io.sandboxfactory.core.testing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Captures every java.util.logging record (slf4j-jdk14 is the test binding) at level ALL, with
 * the formatted message and any exception text, while open.
 */
public final class CapturedLogs extends Handler implements AutoCloseable {

    private final Logger root = Logger.getLogger("");
    private final Logger ours = Logger.getLogger("io.sandboxfactory");
    private final Level previousRoot;
    private final Level previousOurs;
    private final List<LogRecord> records = Collections.synchronizedList(new ArrayList<>());

    public CapturedLogs() {
        setLevel(Level.ALL);
        previousRoot = root.getLevel();
        previousOurs = ours.getLevel();
        root.setLevel(Level.ALL);
        ours.setLevel(Level.ALL);
        root.addHandler(this);
    }

    @Override
    public void publish(LogRecord record) {
        records.add(record);
    }

    /** Every captured record as text: level, logger, formatted message, parameters and exception chain. */
    public List<String> lines() {
        List<String> lines = new ArrayList<>();
        synchronized (records) {
            for (LogRecord r : records) {
                StringBuilder line = new StringBuilder(r.getLevel() + " " + r.getLoggerName() + " " + r.getMessage());
                if (r.getParameters() != null) {
                    for (Object p : r.getParameters()) {
                        line.append(" | ").append(p);
                    }
                }
                for (Throwable t = r.getThrown(); t != null; t = t.getCause()) {
                    line.append(" | ").append(t);
                }
                lines.add(line.toString());
            }
        }
        return lines;
    }

    public boolean contains(Level level, String text) {
        synchronized (records) {
            return records.stream().anyMatch(r -> r.getLevel().equals(level) && String.valueOf(r.getMessage()).contains(text));
        }
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        root.removeHandler(this);
        root.setLevel(previousRoot);
        ours.setLevel(previousOurs);
    }
}
