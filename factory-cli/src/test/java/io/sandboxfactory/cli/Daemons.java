package io.sandboxfactory.cli;

import io.sandboxfactory.cli.daemon.FactoryDaemon;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * The factory daemons of one state directory as the CLI tests see them: their processes (found by
 * command line), their sockets, and a stop that a test runs before its directory is deleted.
 */
final class Daemons {

    private final Path directory;

    Daemons(Path stateDirectory) {
        this.directory = stateDirectory.resolve("daemon");
    }

    Path directory() {
        return directory;
    }

    /** The live daemon processes of this state directory. */
    List<ProcessHandle> processes() {
        return ProcessHandle.allProcesses().filter(p -> p.info().commandLine()
                .filter(line -> line.contains(FactoryDaemon.class.getName()) && line.contains(directory.toString()))
                .isPresent()).toList();
    }

    List<Path> sockets() {
        return files(".sock");
    }

    List<Path> logs() {
        return files(".log");
    }

    private List<Path> files(String suffix) {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(p -> p.toString().endsWith(suffix)).toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    static boolean listening(Path socket) {
        try (SocketChannel ignored = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Stops every daemon of the directory the way users do, by removing its socket; kills one that
     * stays. The removal is repeated while waiting: a daemon that a command had only just started
     * binds its socket after the first removal, and would otherwise serve on until it is idle.
     */
    void stop() {
        List<ProcessHandle> running = processes();
        boolean gone = awaitCondition(() -> {
            removeSockets();
            return running.stream().noneMatch(ProcessHandle::isAlive);
        });
        if (!gone) {
            running.forEach(ProcessHandle::destroyForcibly);
        }
    }

    private void removeSockets() {
        for (Path socket : sockets()) {
            try {
                Files.deleteIfExists(socket);
            } catch (IOException e) {
                throw new UncheckedIOException("Could not remove the daemon socket " + socket, e);
            }
        }
    }

    /** Polls for up to 60 s; a condition, not a timing assertion. */
    static boolean awaitCondition(BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return true;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return condition.getAsBoolean();
    }
}
