package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.support.OutputCollector;
import io.sandboxfactory.api.support.OutputPump;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FileInputStream;
import java.io.OutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Starts commands through one long-lived perl process (the fork server, {@code fork-server.pl})
 * that forks each as the leader of a new process group, its stdout and stderr opened on two FIFOs that
 * this JVM opens as the command starts and pool threads read directly.
 *
 * <p>Why: the JVM cannot make a process a group leader itself, and starting the {@code setsid}
 * program before each shell cost as much as the shell. A fork of a small server that calls {@code
 * setpgid()} costs a fraction of that (a group, not a session as {@code setsid} made: on a busy host
 * Linux gives every session its own share of the CPU, which halved a command's output rate); the FIFOs keep the output on one pipe from the command to
 * the JVM, as a process of the JVM's own would have it (relaying it through the server cost a
 * second copy of every byte). The server is started on the first command and again after it died;
 * it exits when the JVM does (its stdin ends), and every command still running ends with it
 * (SIGTERM to its group, SIGKILL 1 s later): commands die with their host, also one killed with
 * SIGKILL. The server leads a process group of its own, so a signal to the JVM's group does not
 * take it along before it could end them.
 *
 * <p>{@linkplain Confinement Confined}, the server runs inside one session's boundary (its own pid
 * namespace): the pids it reports are that namespace's, so this JVM never signals them or looks
 * them up as host pids; it asks the server to kill a command ({@link Launch#killInside()}) or
 * everything of the session ({@link #killAll()}).
 */
final class ForkServer implements Launcher {

    private static final String SCRIPT = script();

    /** How a confined server is started: inside a session's boundary. */
    interface Confinement {

        /** A new private directory for one server's FIFOs, visible inside the boundary at its path. */
        Path newFifoDirectory() throws IOException;

        /** The file the server's stderr is appended to (what bwrap says when it cannot make the boundary). */
        Path errorLog(Path fifos);

        /** The command that runs {@code server} inside the boundary, the FIFO directory bound into it. */
        List<String> command(List<String> server, Path fifos);

        /** Starts the boundary's process (and records it, so another instance can end it). */
        Process start(ProcessBuilder builder) throws IOException;
    }

    /** Linux's shared memory, a tmpfs: a FIFO made and removed there costs no disk inode (see {@link #fifoParent}). */
    static final Path SHARED_MEMORY = Path.of("/dev/shm");

    private final String perl;
    private final Executor pumps;
    private final Optional<Confinement> confinement;
    /** Where an unconfined server's FIFO directory is made. */
    private final Path fifoParent;
    private final AtomicInteger ids = new AtomicInteger();
    private Path fifos;
    private Connection connection;
    /** Set once the session was destroyed: no server starts again (a command racing the destroy fails). */
    private boolean ended;

    /** A server on the host, its FIFO directory made under {@code fifoParent} (see {@link #fifoParent}). */
    ForkServer(String perl, Executor pumps, Path fifoParent) {
        this(perl, pumps, Optional.empty(), fifoParent);
    }

    /** A server inside a session's boundary, its FIFO directory the one the confinement makes. */
    ForkServer(String perl, Executor pumps, Confinement confinement) {
        this(perl, pumps, Optional.of(confinement), null);
    }

    private ForkServer(String perl, Executor pumps, Optional<Confinement> confinement, Path fifoParent) {
        this.perl = perl;
        this.pumps = pumps;
        this.confinement = confinement;
        this.fifoParent = fifoParent;
    }

    /**
     * {@code sharedMemory} when it is a writable directory: where servers make their FIFO
     * directories then, else a server on the host in the temporary directory and one in a boundary
     * in its session's private directory. Why: every command makes and removes two FIFOs, and on a
     * disk file system (ext4) allocating their inodes among so many recently freed ones cost more CPU
     * than the JVM's whole part of the command; on a tmpfs it costs next to nothing.
     */
    static Optional<Path> fifoParent(Path sharedMemory) {
        return Files.isDirectory(sharedMemory) && Files.isWritable(sharedMemory) ? Optional.of(sharedMemory) : Optional.empty();
    }

    @Override
    public Launch start(String commandLine, Path cwd, Map<String, String> env, OutputCollector stdout,
                        OutputCollector stderr) throws IOException {
        int id = ids.incrementAndGet();
        Connection server = connection();
        Command command = new Command(id, server, stdout, stderr, fifos, pumps, confinement.isEmpty());
        ByteArrayOutputStream payload = new ByteArrayOutputStream(256 + commandLine.length());
        payload.writeBytes(cwd.toString().getBytes(StandardCharsets.UTF_8));
        payload.write(0);
        payload.writeBytes(commandLine.getBytes(StandardCharsets.UTF_8));
        env.forEach((name, value) -> {
            payload.write(0);
            payload.writeBytes((name + "=" + value).getBytes(StandardCharsets.UTF_8));
        });
        server.commands.put(id, command);
        try {
            server.send('S', id, payload.toByteArray());
            command.awaitPid();
        } catch (IOException e) {
            server.commands.remove(id);
            throw new IOException(e.getMessage() + server.why(), e);
        } catch (InterruptedException e) {
            command.abandon();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting the command", e);
        }
        return command;
    }

    @Override
    public synchronized void close() {
        if (connection != null) {
            connection.process.destroy();
            connection = null;
        }
        removeFifos();
    }

    /**
     * Confined: kills every process of the session's boundary, commands running and what earlier
     * ones left in the background, and waits until they are gone (the server's exit ends the pid
     * namespace, and {@code bwrap} exits once its init, the last of them, did). The next command
     * starts a new server.
     */
    synchronized void killAll() {
        killAll(false);
    }

    /** {@link #killAll()}, and no server starts again: the session was destroyed. */
    synchronized void end() {
        killAll(true);
    }

    private void killAll(boolean forever) {
        ended |= forever;
        if (confinement.isEmpty()) {
            throw new IllegalStateException("Only a confined fork server kills everything of its session.");
        }
        if (connection != null) {
            Process process = connection.process;
            try {
                connection.send('Q', 0, new byte[0]);
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (IOException e) {
                // Its pipe broke: the server is exiting; make sure.
                process.destroyForcibly();
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
            connection = null;
        }
        removeFifos();
    }

    private void removeFifos() {
        if (fifos != null) {
            try {
                Directories.deleteRecursively(fifos);
                if (confinement.isPresent()) {
                    Files.deleteIfExists(confinement.get().errorLog(fifos));
                }
            } catch (IOException e) {
                // A FIFO of a command still starting; the directory is in the temporary directory.
            }
            fifos = null;
        }
    }

    private synchronized Connection connection() throws IOException {
        if (ended) {
            throw new IOException("the session's boundary was ended by its destroy");
        }
        if (fifos == null) {
            // Private to this user (0700): no one else can open a command's output.
            fifos = confinement.isPresent() ? confinement.get().newFifoDirectory() : Files.createTempDirectory(fifoParent, "sandbox-factory-fork-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        if (connection == null || !connection.process.isAlive()) {
            List<String> server = List.of(perl, "-e", SCRIPT, fifos.toString());
            Path dir = fifos;
            ProcessBuilder builder = new ProcessBuilder(confinement.map(c -> c.command(server, dir)).orElse(server));
            // Confined, what bwrap says when it cannot make the boundary is kept, for the error it causes.
            Optional<Path> errors = confinement.map(c -> c.errorLog(dir));
            builder.redirectError(errors.map(file -> ProcessBuilder.Redirect.appendTo(file.toFile())).orElse(ProcessBuilder.Redirect.DISCARD));
            // The server's own environment reaches no command (each gets exactly its own); an empty
            // one keeps PERL5LIB and the like from changing the server.
            builder.environment().clear();
            connection = new Connection(confinement.isPresent() ? confinement.get().start(builder) : builder.start(), errors);
        }
        return connection;
    }

    private static String script() {
        try (InputStream in = ForkServer.class.getResourceAsStream("fork-server.pl")) {
            if (in == null) {
                throw new IllegalStateException("fork-server.pl is missing from the local provider's jar.");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One running server: its pipes, its reader thread and the commands it runs. */
    private static final class Connection {
        final Process process;
        final DataOutputStream out;
        final Map<Integer, Command> commands = new ConcurrentHashMap<>();

        /** Where the server's stderr goes, when it is kept. */
        final Optional<Path> errors;

        Connection(Process process, Optional<Path> errors) {
            this.process = process;
            this.errors = errors;
            this.out = new DataOutputStream(new BufferedOutputStream(process.getOutputStream()));
            Thread reader = new Thread(this::read, "local-fork-server-" + process.pid());
            reader.setDaemon(true);
            reader.start();
        }

        /** The end of what the server wrote to its stderr, if kept: why bwrap could not make the boundary. */
        String why() {
            return errors.map(file -> {
                try {
                    String text = Files.readString(file, StandardCharsets.UTF_8).strip();
                    return text.isEmpty() ? "" : ": " + text.substring(Math.max(0, text.length() - 400));
                } catch (IOException e) {
                    return "";
                }
            }).orElse("");
        }

        synchronized void send(char type, int id, byte[] payload) throws IOException {
            out.writeByte(type);
            out.writeInt(id);
            out.writeInt(payload.length);
            out.write(payload);
            out.flush();
        }

        private void read() {
            byte[] buffer = new byte[64 * 1024 + 9];
            try (DataInputStream in = new DataInputStream(new BufferedInputStream(process.getInputStream(), 128 * 1024))) {
                while (true) {
                    int type = in.readUnsignedByte();
                    int id = in.readInt();
                    int length = in.readInt();
                    byte[] data = length <= buffer.length ? buffer : new byte[length];
                    in.readFully(data, 0, length);
                    Command command = commands.get(id);
                    if (command != null) {
                        command.receive(type, data, length);
                    }
                }
            } catch (EOFException e) {
                // The server exited.
            } catch (IOException e) {
                // Its pipe broke: the same.
            } finally {
                process.destroy();
                String why = why();
                commands.values().forEach(command -> command.serverGone(why));
                commands.clear();
            }
        }
    }

    /** One command the server runs, as its {@link Launch}. */
    private static final class Command implements Launch {
        private final int id;
        private final Connection server;
        private final OutputCollector stdout;
        private final OutputCollector stderr;
        private final Fifo out;
        private final Fifo err;
        private final Executor pumps;
        /** Whether the pids the server reports are the host's (it is not confined). */
        private final boolean hostPids;
        private final CountDownLatch started = new CountDownLatch(1);
        private final CountDownLatch exited = new CountDownLatch(1);
        private volatile long pid = -1;
        private volatile String failure;
        private volatile Optional<ProcessHandle> leader = Optional.empty();
        private volatile int exitCode;
        private volatile boolean groupEmpty;
        private volatile boolean lost;
        private volatile OutputPump outPump;
        private volatile OutputPump errPump;
        private volatile boolean abandoned;

        Command(int id, Connection server, OutputCollector stdout, OutputCollector stderr, Path fifos, Executor pumps,
                boolean hostPids) {
            this.id = id;
            this.hostPids = hostPids;
            this.server = server;
            this.stdout = stdout;
            this.stderr = stderr;
            this.out = new Fifo(fifos.resolve(id + ".o"));
            this.err = new Fifo(fifos.resolve(id + ".e"));
            this.pumps = pumps;
        }

        void receive(int type, byte[] data, int length) {
            switch (type) {
                case 'P' -> {
                    pid = Long.parseLong(new String(data, 0, length, StandardCharsets.US_ASCII));
                    leader = hostPids ? ProcessHandle.of(pid) : Optional.empty();
                    started.countDown();
                    if (abandoned) {
                        killUnstarted();
                    }
                }
                case 'F' -> {
                    failure = new String(data, 0, length, StandardCharsets.UTF_8);
                    server.commands.remove(id);
                    started.countDown();
                }
                case 'X' -> {
                    String[] fields = new String(data, 0, length, StandardCharsets.US_ASCII).split(" ");
                    exitCode = Integer.parseInt(fields[0]);
                    groupEmpty = fields.length > 1 && fields[1].equals("0");
                    server.commands.remove(id);
                    exited.countDown();
                    releaseFifos();
                }
                default -> {
                    // A frame this client does not know: ignored.
                }
            }
        }

        void serverGone(String why) {
            if (pid < 0 && failure == null) {
                failure = "the local provider's fork server exited" + why;
            }
            lost = exited.getCount() > 0;
            started.countDown();
            exited.countDown();
            if (pid >= 0) {
                releaseFifos();
            }
        }

        /**
         * After the command's end: lets a start thread still waiting to open a FIFO go on; an
         * abandoned start never opens them, so they are only removed, and this reader thread of every
         * command's frames never waits for a reader that does not come.
         */
        private void releaseFifos() {
            if (abandoned) {
                out.remove();
                err.remove();
            } else {
                out.releaseReader();
                err.releaseReader();
            }
        }

        /**
         * The caller stopped waiting for the start: the command must not run. Its fork waits, before
         * the shell, for this JVM to open the FIFOs, which it now never will; it is killed there
         * rather than left to its 60 s alarm.
         */
        void abandon() {
            abandoned = true;
            if (pid >= 0) {
                killUnstarted();
            }
        }

        private void killUnstarted() {
            // Its server reaps it only after this (the exit frame comes then), so the pid is still its own.
            if (exited.getCount() > 0) {
                if (hostPids) {
                    leader.ifPresent(ProcessHandle::destroyForcibly);
                } else {
                    killInside();
                }
            }
        }

        @Override
        public void killInside() {
            try {
                server.send('K', id, new byte[0]);
            } catch (IOException e) {
                // The server is gone, and its boundary with it.
            }
        }

        /** @throws UncheckedIOException when the server was lost before it said whether it forked the command */
        void awaitPid() throws IOException, InterruptedException {
            started.await();
            if (pid < 0) {
                if (lost) {
                    throw new UncheckedIOException(new IOException(failure));
                }
                throw new IOException(failure);
            }
            // Opened here rather than by the pumps: the command waits for these opens before it runs,
            // and this thread is awake already.
            InputStream outStream = out.open();
            InputStream errStream = err.open();
            outPump = OutputPump.start(() -> outStream, stdout, pumps);
            errPump = OutputPump.start(() -> errStream, stderr, pumps);
        }

        @Override
        public long pid() {
            return pid;
        }

        @Override
        public Optional<ProcessHandle> leader() {
            return leader;
        }

        @Override
        public boolean awaitExit(Duration timeout) throws InterruptedException {
            if (timeout == null) {
                exited.await();
                return true;
            }
            return exited.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int exitCode() {
            if (lost) {
                throw new UncheckedIOException(new IOException("the local provider's fork server exited while the command ran"));
            }
            return exitCode;
        }

        @Override
        public boolean groupEmptyAtExit() {
            return groupEmpty && !lost;
        }

        @Override
        public void awaitOutputEnd(long deadlineNanos) throws InterruptedException {
            outPump.awaitEnd(deadlineNanos);
            errPump.awaitEnd(deadlineNanos);
        }

        @Override
        public void detach() {
            outPump.detach();
            errPump.detach();
        }
    }

    /** One FIFO a command writes and a pump reads: removed once open, or released when its writer never comes. */
    private static final class Fifo {
        private final Path path;
        private boolean opened;

        Fifo(Path path) {
            this.path = path;
        }

        InputStream open() throws IOException {
            // Blocks until the command opens its end, which it does first thing after the fork (or
            // until releaseReader() when it died before that).
            InputStream in = new FileInputStream(path.toFile());
            synchronized (this) {
                opened = true;
            }
            Files.deleteIfExists(path);
            return in;
        }

        /**
         * Ends a wait in {@link #open()} when the command died before opening its end: a writer
         * that opens and closes at once gives the reader an empty stream. Never creates a file: the
         * FIFO is gone once a reader opened it. Blocks until the reader opens, so only for a command
         * whose start thread goes on to open it (not an abandoned one).
         */
        synchronized void releaseReader() {
            if (opened) {
                return;
            }
            opened = true;
            try (OutputStream ignored = Files.newOutputStream(path, StandardOpenOption.WRITE)) {
                Files.deleteIfExists(path);
            } catch (IOException e) {
                // Not there: the fork never happened, or the pump already removed it.
            }
        }

        void remove() {
            try {
                Files.deleteIfExists(path);
            } catch (IOException e) {
                // The directory goes with the server.
            }
        }
    }
}
