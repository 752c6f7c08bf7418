package io.sandboxfactory.core.internal.channel;

import io.sandboxfactory.core.internal.git.HostGit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Byte streams from a sandbox to the factory without a network: a host directory the sandbox sees
 * read-only (a provider's {@code HOST_DIRECTORIES}) holds {@value #SLOTS} pairs of FIFOs and a
 * client script. A program in the sandbox runs {@code sh DIR/connect HEADER...}: the script takes a
 * free slot (a lock directory in the sandbox's own temporary directory), opens the slot's
 * {@code down} FIFO, writes one header line and then its standard input to {@code up}, and copies
 * {@code down} to its standard output. The factory reads the header and hands both streams to the
 * {@link ChannelHandler}, which answers on {@code down}; when the handler returns, the slot's FIFOs are
 * made anew before the old ones are closed, so what a client left unread or unsent never reaches the
 * next connection, and a client sees its end of stream only after the slot is fresh.
 *
 * <p>The factory holds each FIFO open for reading and writing ({@code O_RDWR}, which Linux never
 * blocks on), so a client's opens never wait and closing the channel wakes every slot's thread.
 * Only sh, mkdir, cat, dd and kill are needed in the sandbox, and no route out of it: a sandbox without
 * network (a network namespace of its own, Docker's {@code none}) reaches the factory this way, and
 * only through the handler, which decides what a header may ask for. The directory is per session,
 * so which session connects is known by where it connected; the sandbox cannot change it (read-only)
 * and the factory opens nothing in it that is not a FIFO (no link is followed).
 */
public final class HostChannel implements SessionChannel {

    /** Concurrent connections per channel. */
    public static final int SLOTS = 4;
    private static final Logger LOG = LoggerFactory.getLogger(HostChannel.class);

    private final Path directory;
    private final String name;
    private final ChannelHandler handler;
    private final List<Slot> slots = new ArrayList<>();
    private volatile boolean closed;

    private HostChannel(Path directory, String name, ChannelHandler handler) {
        this.directory = directory;
        this.name = name;
        this.handler = handler;
    }

    /**
     * Where session {@code sessionId}'s channel for {@code purpose} lives: {@code
     * <state>/channels/<purpose>-<hash of the id>} (an id may hold characters a file or lock name
     * should not).
     */
    public static Path directoryFor(Path stateDirectory, String purpose, String sessionId) {
        return stateDirectory.resolve("channels").resolve(purpose + "-" + HostGit.key(sessionId).substring(0, 20));
    }

    /**
     * Makes {@code directory} (removing what an earlier process left there) and starts serving it.
     * Its name (letters, digits, '-') names the channel's threads, logs and the client's lock
     * directories.
     */
    public static HostChannel open(Path directory, ChannelHandler handler) throws IOException {
        Objects.requireNonNull(handler, "handler");
        String name = directory.getFileName().toString();
        if (!name.matches("[A-Za-z0-9-]{1,64}")) {
            throw new IllegalArgumentException("Channel name '" + name + "' is invalid; it must be 1-64 letters, digits or '-'.");
        }
        HostChannel channel = new HostChannel(directory.toAbsolutePath().normalize(), name, handler);
        channel.prepare();
        return channel;
    }

    /** The client script, to run as {@code sh <path> HEADER...} in the sandbox (which sees it at the same path). */
    @Override
    public String client() {
        return clientPath().toString();
    }

    private Path clientPath() {
        return directory.resolve("connect");
    }

    private void prepare() throws IOException {
        // The directory itself stays: a container mounted it when it was made, and would keep seeing a removed one.
        Files.createDirectories(directory);
        ChannelFiles.deleteContents(directory);
        Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path script = clientPath();
        Files.writeString(script, ChannelFiles.clientScript(name, SLOTS), StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("r-xr-xr-x"));
        for (int k = 0; k < SLOTS; k++) {
            Slot slot = new Slot(k);
            slot.renew();
            slots.add(slot);
        }
        for (Slot slot : slots) {
            Thread thread = new Thread(slot::serveLoop, "sandbox-factory-channel-" + name + "-" + slot.index);
            thread.setDaemon(true);
            thread.start();
        }
    }

    @Override
    public boolean serving() {
        return !closed;
    }

    /**
     * Stops serving: every slot's thread ends (a connection in progress is cut) and the FIFOs are
     * removed (a client then says at once that nothing serves the directory, instead of waiting).
     */
    @Override
    public void close() {
        closed = true;
        for (Slot slot : slots) {
            slot.closeChannels();
        }
        try {
            ChannelFiles.deleteFifos(directory);
        } catch (IOException e) {
            LOG.debug("Channel directory {} could not be removed: {}", directory, e.toString());
        }
    }

    /**
     * A shell line that succeeds only in a sandbox that can use this channel: it sees the client and
     * can open a FIFO (a sandbox made before the directory was given to it cannot; nor can gVisor,
     * which passes no FIFO across its file boundary). Opening a {@code down} FIFO and closing it
     * unread disturbs no connection.
     */
    String usableCheck() {
        return "test -r '" + clientPath() + "' && : < '" + directory.resolve("s0.down") + "'";
    }

    /** Removes a channel's directory with what it holds, once nothing serves it any more. */
    public static void remove(Path directory) throws IOException {
        ChannelFiles.deleteContents(directory);
        Files.deleteIfExists(directory);
    }

    /** One pair of FIFOs and the thread that serves it. */
    private final class Slot {
        private final int index;
        private FileChannel up;
        private FileChannel down;

        Slot(int index) {
            this.index = index;
        }

        /** Makes this slot's FIFOs anew and opens them; the old ones (if any) are returned for closing. */
        synchronized List<FileChannel> renew() throws IOException {
            List<FileChannel> old = new ArrayList<>();
            if (up != null) {
                old.add(up);
                old.add(down);
            }
            Path upPath = directory.resolve("s" + index + ".up");
            Path downPath = directory.resolve("s" + index + ".down");
            Files.deleteIfExists(upPath);
            Files.deleteIfExists(downPath);
            ChannelFiles.mkfifo(upPath);
            ChannelFiles.mkfifo(downPath);
            up = openFifo(upPath);
            down = openFifo(downPath);
            return old;
        }

        synchronized FileChannel up() {
            return up;
        }

        synchronized FileChannel down() {
            return down;
        }

        synchronized void closeChannels() {
            ChannelFiles.closeQuietly(up);
            ChannelFiles.closeQuietly(down);
        }

        void serveLoop() {
            while (!closed) {
                FileChannel in = up();
                FileChannel out = down();
                try {
                    InputStream fromClient = Channels.newInputStream(in);
                    OutputStream toClient = Channels.newOutputStream(out);
                    String header = ChannelHeader.read(fromClient, toClient);
                    if (header != null) {
                        handler.serve(header, fromClient, toClient);
                    }
                } catch (ClosedChannelException e) {
                    // Closed by close(), or the handler closed its streams.
                } catch (IOException | RuntimeException e) {
                    if (!closed) {
                        LOG.warn("A connection on channel {} failed: {}", name, e.toString());
                    }
                }
                if (closed) {
                    return;
                }
                try {
                    renew().forEach(ChannelFiles::closeQuietly);
                } catch (IOException e) {
                    LOG.warn("Channel {} could not renew slot {}; it serves one fewer connection: {}", name, index, e.toString());
                    return;
                }
            }
        }
    }

    /** Opens a FIFO for reading and writing (never blocks on Linux), refusing anything that is not one. */
    private static FileChannel openFifo(Path fifo) throws IOException {
        PosixFileAttributes attributes = Files.readAttributes(fifo, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (!attributes.isOther()) {
            throw new IOException(fifo + " is not a FIFO");
        }
        return FileChannel.open(fifo, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
    }
}
