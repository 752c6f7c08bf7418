package io.sandboxfactory.cli.daemon;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * {@code factory daemon status} and {@code stop} from the caller's side: asks the daemons listening
 * in {@code <state dir>/daemon/} about themselves, and stops them the documented way, by removing
 * their socket (a daemon then finishes its running commands and exits). Every socket there counts,
 * not only this build's: a daemon of an earlier build of the jar still holds sessions warm.
 */
public final class DaemonControl {

    /** A daemon {@link #stop} asked to leave. */
    public record Stopped(Path socket, Optional<Long> pid, boolean exited) {
    }

    private final Path directory;

    private DaemonControl(Path directory) {
        this.directory = directory;
    }

    public static DaemonControl of(Path stateDirectory) {
        return new DaemonControl(stateDirectory.toAbsolutePath().resolve("daemon"));
    }

    /** The status of every daemon that listens here and answers (one of an older build that does not know the request is left out). */
    public List<DaemonStatus> statuses() {
        List<DaemonStatus> statuses = new ArrayList<>();
        for (Path socket : sockets()) {
            status(socket).ifPresent(statuses::add);
        }
        return statuses;
    }

    /**
     * Removes the socket of every daemon that listens here and waits up to {@code wait} for each to
     * exit; a socket no daemon listens on (one killed outright) is removed too, and not reported.
     */
    public List<Stopped> stop(Duration wait) throws IOException {
        List<Stopped> stopped = new ArrayList<>();
        for (Path socket : sockets()) {
            boolean listening = listening(socket);
            Optional<Long> pid = listening ? status(socket).map(DaemonStatus::pid) : Optional.empty();
            Files.deleteIfExists(socket);
            if (listening) {
                stopped.add(new Stopped(socket, pid, pid.map(id -> awaitExit(id, wait)).orElse(true)));
            }
        }
        return stopped;
    }

    private static boolean awaitExit(long pid, Duration wait) {
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isEmpty()) {
            return true;
        }
        try {
            process.get().onExit().get(wait.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            return !process.get().isAlive();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private List<Path> sockets() {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(file -> file.getFileName().toString().endsWith(".sock")).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static boolean listening(Path socket) {
        try (SocketChannel ignored = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            return true;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** The daemon's answer to {@link DaemonStatus#REQUEST}, or empty when nothing (or something else) answers there. */
    static Optional<DaemonStatus> status(Path socket) {
        try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            DataOutputStream requests = new DataOutputStream(DaemonProtocol.output(channel));
            DataInputStream frames = new DataInputStream(DaemonProtocol.input(channel));
            DaemonProtocol.writeRequest(requests, new DaemonProtocol.Request(DaemonStatus.REQUEST, "/", Map.of()));
            ByteArrayOutputStream document = new ByteArrayOutputStream();
            for (DaemonProtocol.Frame frame = DaemonProtocol.readFrame(frames); frame != null; frame = DaemonProtocol.readFrame(frames)) {
                switch (frame.type()) {
                    case DaemonProtocol.STDOUT -> document.write(frame.payload());
                    case DaemonProtocol.EXIT -> {
                        return frame.exitCode() == 0
                                ? Optional.of(new ObjectMapper().readValue(document.toByteArray(), DaemonStatus.class))
                                : Optional.empty();
                    }
                    case DaemonProtocol.DECLINED -> {
                        return Optional.empty();
                    }
                    default -> {
                    }
                }
            }
            return Optional.empty();
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.empty();
        }
    }
}
