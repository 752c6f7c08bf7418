package io.sandboxfactory.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The host's load average (1, 5, 15 minutes) from /proc, for the report: figures from a loaded machine must say so. */
public final class LoadAverage {

    private LoadAverage() {
    }

    public static String read() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException | ArrayIndexOutOfBoundsException e) {
            return "unknown";
        }
    }
}
