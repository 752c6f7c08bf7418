package io.sandboxfactory.bench.local;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Map;

/**
 * What a caller would write with the JDK alone, the floor of every exec path: {@code
 * ProcessBuilder("/bin/sh", "-c", command)}, stdout read whole, then the exit code.
 */
public final class RawProcess {

    private final Path directory;
    private final Map<String, String> environment;

    public RawProcess(Path directory, Map<String, String> environment) {
        this.directory = directory;
        this.environment = Map.copyOf(environment);
    }

    /** Runs {@code command} and returns how many bytes it printed; fails on a non-zero exit. */
    public long run(String command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", command).directory(directory.toFile());
        builder.environment().clear();
        builder.environment().putAll(environment);
        Process process = builder.start();
        process.getOutputStream().close();
        long bytes;
        try (InputStream out = process.getInputStream()) {
            bytes = out.readAllBytes().length;
        }
        int exit = process.waitFor();
        if (exit != 0) {
            throw new IllegalStateException("sh -c '" + command + "' exited " + exit + ".");
        }
        return bytes;
    }
}
