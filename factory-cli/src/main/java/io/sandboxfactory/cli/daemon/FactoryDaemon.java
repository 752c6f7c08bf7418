package io.sandboxfactory.cli.daemon;

import io.sandboxfactory.cli.FactoryCommand;
import io.sandboxfactory.cli.Main;
import io.sandboxfactory.cli.output.Console;
import io.sandboxfactory.cli.output.Json;
import io.sandboxfactory.core.config.DurationFormat;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The factory daemon of one state directory: a resident process that runs {@code factory}
 * commands ({@link DaemonClient#SERVED}) from {@link DaemonClient}s on its Unix socket, each with the client's own arguments,
 * working directory and environment, through the same picocli command as in a process of its own.
 * Its {@link WarmFactories} keep sessions' sandboxes running between commands.
 *
 * <p>Only its own user can reach it (the socket's directory is private, and the peer's user is
 * checked). It exits after {@code FACTORY_DAEMON_IDLE} (default 10 minutes) without a request, and
 * as soon as its socket file is removed or replaced, for example with the state directory; one
 * daemon per socket holds the lock file beside it, so a second one exits at once. It answers
 * {@link DaemonStatus#REQUEST} with its {@link DaemonStatus} ({@code factory daemon status}).
 */
public final class FactoryDaemon {

    private static final Duration DEFAULT_IDLE = Duration.ofMinutes(10);
    private static final Duration QUIET_BEFORE_RELEASE = Duration.ofSeconds(20);
    private static final int WARM_FACTORIES = 4;
    /**
     * How often the daemon looks for its socket file: a user or script that removes it to stop the
     * daemon waits for the exit, so it comes within a tenth of a second (a stat call each time).
     */
    private static final long SOCKET_CHECK_MILLIS = 100;

    private final Path socket;
    private final Object socketKey;
    private final ServerSocketChannel server;
    private final FileLock lock;
    private final Duration idleTimeout;
    private final Instant started = Instant.now();
    /** When {@link #releaseMemoryWhenQuiet()} last collected; guarded by {@code this}. */
    private Instant released;
    private final WarmFactories factories = new WarmFactories(WARM_FACTORIES);
    /** Apart from {@link #watch}: a slow teardown must not hold up the daemon's own exit checks. */
    private final ScheduledExecutorService idlePolicies = Executors.newSingleThreadScheduledExecutor(r -> thread(r, "factory-daemon-idle"));
    /** Where what a request's thread logs goes: that request's client. */
    private final RequestLogs logs = new RequestLogs(System.err);
    private final ExecutorService requests = Executors.newCachedThreadPool(r -> thread(r, "factory-daemon-request"));
    private final ScheduledExecutorService watch = Executors.newSingleThreadScheduledExecutor(r -> thread(r, "factory-daemon-watch"));
    /** Guarded by {@code this}. */
    private int active;
    private Instant lastActivity = Instant.now();
    private boolean closing;

    private FactoryDaemon(Path socket, Object socketKey, ServerSocketChannel server, FileLock lock, Duration idleTimeout) {
        this.socket = socket;
        this.socketKey = socketKey;
        this.server = server;
        this.lock = lock;
        this.idleTimeout = idleTimeout;
    }

    public static void main(String[] args) {
        Main.startupDefaults();
        DaemonAddress address = DaemonAddress.ofSocket(Path.of(args[0]));
        try {
            String idle = System.getenv("FACTORY_DAEMON_IDLE");
            if (idle != null && !idle.isBlank() && !isDuration(idle)) {
                System.err.println(Instant.now() + " FACTORY_DAEMON_IDLE '" + idle + "' is not a duration (e.g. 30s, 10m); using "
                        + DEFAULT_IDLE.toMinutes() + " minutes.");
            }
            Optional<FactoryDaemon> daemon = bind(address, idleTimeout(System.getenv()));
            if (daemon.isPresent()) {
                daemon.get().serve();
            }
        } catch (IOException | RuntimeException e) {
            System.err.println(Instant.now() + " factory daemon on " + address.socket() + " failed: " + e);
            markFailed(address);
            System.exit(1);
        }
        System.exit(0);
    }

    /** Leaves the {@link DaemonAddress#failed()} marker, so that clients stop starting daemons here for a while. */
    private static void markFailed(DaemonAddress address) {
        try {
            Files.deleteIfExists(address.failed());
            Files.createFile(address.failed());
        } catch (IOException e) {
            System.err.println(Instant.now() + " could not leave " + address.failed() + ": " + e);
        }
    }

    /**
     * How long a daemon started with {@code environment} waits without a command before it stops:
     * {@code FACTORY_DAEMON_IDLE}, or 10 minutes when it is unset or no duration. Silent: the client
     * that starts a daemon also asks, to tell its user.
     */
    static Duration idleTimeout(Map<String, String> environment) {
        String text = environment.get("FACTORY_DAEMON_IDLE");
        return text != null && !text.isBlank() && isDuration(text) ? DurationFormat.parse(text) : DEFAULT_IDLE;
    }

    private static boolean isDuration(String text) {
        try {
            DurationFormat.parse(text);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Takes the lock and the socket, or returns empty when another daemon holds them. */
    static Optional<FactoryDaemon> bind(DaemonAddress address, Duration idleTimeout) throws IOException {
        Path socket = address.socket();
        FileChannel lockChannel = FileChannel.open(address.lock(), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = lockChannel.tryLock();
        if (lock == null) {
            lockChannel.close();
            return Optional.empty();
        }
        try {
            // Holding the lock, any socket file here is a dead daemon's.
            Files.deleteIfExists(socket);
            ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            server.bind(UnixDomainSocketAddress.of(socket));
            Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
            Object key = Files.readAttributes(socket, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
            return Optional.of(new FactoryDaemon(socket, key, server, lock, idleTimeout));
        } catch (IOException | RuntimeException e) {
            lockChannel.close();
            throw e;
        }
    }

    void serve() {
        logs.install();
        System.err.println(Instant.now() + " factory daemon " + ProcessHandle.current().pid() + " serving " + socket);
        watch.scheduleWithFixedDelay(this::closeWhenUnwanted, SOCKET_CHECK_MILLIS, SOCKET_CHECK_MILLIS, TimeUnit.MILLISECONDS);
        watch.scheduleWithFixedDelay(this::releaseMemoryWhenQuiet, 1, 1, TimeUnit.SECONDS);
        idlePolicies.scheduleWithFixedDelay(this::applyIdlePolicies, 1, 1, TimeUnit.MINUTES);
        while (true) {
            SocketChannel client;
            try {
                client = server.accept();
            } catch (IOException closed) {
                break;
            }
            synchronized (this) {
                if (closing) {
                    decline(client);
                    continue;
                }
                active++;
            }
            requests.execute(() -> {
                boolean command = false;
                try {
                    command = handle(client);
                } finally {
                    synchronized (this) {
                        active--;
                        // Asking for the status is no use of the daemon: it must not keep an idle daemon alive.
                        if (command) {
                            lastActivity = Instant.now();
                        }
                    }
                }
            });
        }
        shutDown();
    }

    private void closeWhenUnwanted() {
        boolean replaced = !socketStillOurs();
        synchronized (this) {
            boolean idle = active == 0 && Duration.between(lastActivity, Instant.now()).compareTo(idleTimeout) >= 0;
            if (closing || !(replaced || idle)) {
                return;
            }
            closing = true;
            System.err.println(Instant.now() + " factory daemon stopping: " + (replaced ? "its socket file is gone" : "idle"));
        }
        try {
            server.close();
        } catch (IOException e) {
            System.err.println(Instant.now() + " closing the socket failed: " + e);
        }
    }

    /**
     * One full collection once the daemon has been quiet for {@link #QUIET_BEFORE_RELEASE}: the
     * serial collector gives heap back to the system only when it collects, and a quiet daemon
     * allocates too little to collect, so the heap a burst of requests grew would stay resident.
     */
    private void releaseMemoryWhenQuiet() {
        synchronized (this) {
            boolean quiet = active == 0 && Duration.between(lastActivity, Instant.now()).compareTo(QUIET_BEFORE_RELEASE) >= 0;
            if (!quiet || (released != null && released.isAfter(lastActivity))) {
                return;
            }
            released = Instant.now();
        }
        System.gc();
    }

    private void applyIdlePolicies() {
        try {
            for (String line : factories.applyIdlePolicies()) {
                System.err.println(Instant.now() + " idle policy: " + line);
            }
        } catch (RuntimeException e) {
            System.err.println(Instant.now() + " idle policy failed: " + e);
        }
    }

    private boolean socketStillOurs() {
        try {
            return Objects.equals(socketKey, Files.readAttributes(socket, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey());
        } catch (IOException e) {
            return false;
        }
    }

    private void shutDown() {
        watch.shutdownNow();
        idlePolicies.shutdownNow();
        requests.shutdown();
        try {
            // Commands that were running when the daemon was told to go finish first.
            while (!requests.awaitTermination(1, TimeUnit.MINUTES)) {
                System.err.println(Instant.now() + " factory daemon waiting for running commands");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        factories.close();
        try {
            if (socketStillOurs()) {
                Files.deleteIfExists(socket);
            }
            lock.channel().close();
        } catch (IOException e) {
            System.err.println(Instant.now() + " cleaning up the socket failed: " + e);
        }
    }

    /** Answers one client; true when it ran a command (not when it declined or said its status). */
    private boolean handle(SocketChannel client) {
        try (client) {
            if (!fromThisUser(client)) {
                return false;
            }
            DataInputStream in = new DataInputStream(DaemonProtocol.input(client));
            FrameWriter frames = new FrameWriter(new DataOutputStream(DaemonProtocol.output(client)));
            DaemonProtocol.Request request = DaemonProtocol.readRequest(in);
            if (request != null && DaemonStatus.REQUEST.equals(request.args())) {
                byte[] document = Json.compact(status()).getBytes(StandardCharsets.UTF_8);
                frames.write(DaemonProtocol.STARTED, new byte[0], 0, 0);
                frames.write(DaemonProtocol.STDOUT, document, 0, document.length);
                frames.exit(0);
                return false;
            }
            Optional<Invocation> invocation = request == null ? Optional.empty() : servable(request);
            if (invocation.isEmpty()) {
                frames.write(DaemonProtocol.DECLINED, new byte[0], 0, 0);
                return false;
            }
            frames.write(DaemonProtocol.STARTED, new byte[0], 0, 0);
            long started = System.nanoTime();
            int code = run(request, invocation.get().verbose(), frames, in);
            // The subcommand only: arguments may hold anything.
            System.err.println(Instant.now() + " served " + invocation.get().subcommand().orElseThrow()
                    + (invocation.get().verbose() ? " (verbose)" : "") + ": exit " + code + " in "
                    + (System.nanoTime() - started) / 1_000_000 + " ms");
            frames.exit(code);
        } catch (IOException e) {
            // The client went away; run() has cancelled what it ran.
        }
        return true;
    }

    private DaemonStatus status() {
        int commands;
        synchronized (this) {
            // The status request itself is one of the active ones.
            commands = active - 1;
        }
        return new DaemonStatus(ProcessHandle.current().pid(), socket.toString(), started.toString(), DurationFormat.format(idleTimeout),
                commands, factories.heldSessions());
    }

    /**
     * The invocation of a request this daemon runs: a {@linkplain DaemonClient#SERVED served} one
     * that asks for no help. Whatever the caller's environment: the request's environment is what
     * the factory, its providers and their commands see.
     */
    private static Optional<Invocation> servable(DaemonProtocol.Request request) {
        Invocation invocation = Invocation.of(request.args().toArray(String[]::new));
        boolean servable = DaemonClient.served(invocation) && !invocation.help() && Path.of(request.workingDirectory()).isAbsolute();
        return servable ? Optional.of(invocation) : Optional.empty();
    }

    private int run(DaemonProtocol.Request request, boolean verbose, FrameWriter frames, DataInputStream in) {
        PrintStream out = new PrintStream(frames.stream(DaemonProtocol.STDOUT), true, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(frames.stream(DaemonProtocol.STDERR), true, StandardCharsets.UTF_8);
        Console console = new Console(out, err, Map.copyOf(request.environment()), Path.of(request.workingDirectory()),
                Path.of(System.getProperty("user.home")), factories);
        String[] args = request.args().toArray(String[]::new);
        Cancellation cancellation = new Cancellation(Thread.currentThread());
        Thread watcher = thread(() -> {
            DaemonProtocol.drained(in);
            cancellation.cancel();
        }, "factory-daemon-cancel");
        watcher.start();
        logs.begin(Thread.currentThread(), err, verbose, line -> console.redaction().apply(line));
        try {
            return FactoryCommand.commandLine(console, args).execute(args);
        } finally {
            logs.end(Thread.currentThread());
            cancellation.finish();
        }
    }

    /** Interrupts a request's thread when its client goes away (the provider then kills the command), never after the request. */
    private static final class Cancellation {
        private final Thread worker;
        private boolean finished;

        Cancellation(Thread worker) {
            this.worker = worker;
        }

        synchronized void cancel() {
            if (!finished) {
                worker.interrupt();
            }
        }

        void finish() {
            synchronized (this) {
                finished = true;
            }
            // A cancellation that came in late must not reach the pool thread's next request.
            Thread.interrupted();
        }
    }

    /** Writes frames from the command's stdout and stderr threads one whole frame at a time. */
    private static final class FrameWriter {
        private final DataOutputStream out;

        FrameWriter(DataOutputStream out) {
            this.out = out;
        }

        synchronized void write(byte type, byte[] bytes, int offset, int length) throws IOException {
            DaemonProtocol.writeFrame(out, type, bytes, offset, length);
        }

        synchronized void exit(int code) throws IOException {
            DaemonProtocol.writeExit(out, code);
        }

        OutputStream stream(byte type) {
            return DaemonProtocol.stream((bytes, offset, length) -> write(type, bytes, offset, length));
        }
    }

    private static boolean fromThisUser(SocketChannel client) {
        try {
            UnixDomainPrincipal peer = client.getOption(ExtendedSocketOptions.SO_PEERCRED);
            return peer.user().getName().equals(System.getProperty("user.name"));
        } catch (IOException | UnsupportedOperationException e) {
            // Without peer credentials the private directory is the only guard, as for the state directory itself.
            return true;
        }
    }

    private static void decline(SocketChannel client) {
        try (client) {
            DaemonProtocol.writeFrame(new DataOutputStream(DaemonProtocol.output(client)), DaemonProtocol.DECLINED, new byte[0], 0, 0);
        } catch (IOException e) {
            // The client runs the command itself either way.
        }
    }

    private static Thread thread(Runnable runnable, String name) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }
}
