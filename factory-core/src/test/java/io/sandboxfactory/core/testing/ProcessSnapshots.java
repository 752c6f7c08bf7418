package io.sandboxfactory.core.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Samples the command line of every process on the machine ({@code /proc/<pid>/cmdline}) every
 * couple of milliseconds on a background thread while open, to catch secrets passed as arguments
 * to short-lived processes (git, its remote helpers, credential helpers, shells).
 */
public final class ProcessSnapshots implements AutoCloseable {

    private static final Path PROC = Path.of("/proc");

    private final Set<String> seen = Collections.synchronizedSet(new LinkedHashSet<>());
    private final AtomicInteger sweeps = new AtomicInteger();
    private final Thread sampler;
    private volatile boolean running = true;

    public ProcessSnapshots() {
        sampler = new Thread(this::sample, "proc-cmdline-sampler");
        sampler.setDaemon(true);
        sampler.start();
    }

    private void sample() {
        while (running) {
            try (DirectoryStream<Path> processes = Files.newDirectoryStream(PROC, p -> p.getFileName().toString().chars()
                    .allMatch(Character::isDigit))) {
                for (Path process : processes) {
                    try {
                        byte[] raw = Files.readAllBytes(process.resolve("cmdline"));
                        if (raw.length > 0) {
                            seen.add(new String(raw, StandardCharsets.UTF_8).replace('\0', ' ').strip());
                        }
                    } catch (IOException gone) {
                        // The process ended between listing and reading.
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException("cannot list /proc", e);
            }
            sweeps.incrementAndGet();
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Every distinct command line seen so far (arguments joined by spaces). */
    public Set<String> commandLines() {
        synchronized (seen) {
            return Set.copyOf(seen);
        }
    }

    /** How many full passes over /proc were made. */
    public int sweeps() {
        return sweeps.get();
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        sampler.interrupt();
        sampler.join(5_000);
    }
}
