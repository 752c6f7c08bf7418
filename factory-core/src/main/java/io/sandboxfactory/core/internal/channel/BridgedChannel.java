package io.sandboxfactory.core.internal.channel;

import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.SandboxNotReadyException;
import io.sandboxfactory.api.capability.StreamingSandbox;
import io.sandboxfactory.api.capability.StreamingSandbox.SandboxStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@link SessionChannel} for a sandbox that cannot open a FIFO of the host (a Kubernetes pod sees
 * no host directory; gVisor passes no host FIFO): the FIFOs and the same client script as a {@link
 * HostChannel}'s live in the sandbox, in {@value #ROOT}{@code /<name>}, and each slot is bridged to
 * the factory by a program the factory starts there through the provider's {@link StreamingSandbox}
 * stream. The bridge copies the slot's {@code up} FIFO to its output and its input to the slot's
 * {@code down} FIFO; it waits for a client, so the factory reads the header from its output as from
 * a host FIFO. When the handler returns, the factory ends the bridge's input: the bridge makes the
 * slot's FIFOs anew before the old ones close (what a client left never reaches the next
 * connection, and the client sees its end of stream only then) and exits, and the factory starts the
 * slot's next bridge.
 *
 * <p>The sandbox needs sh, mkdir, mkfifo, cat, dd and kill, and no route out. Only the session's own
 * sandbox holds the FIFOs, so which session connects is known by which stream it came on.
 */
public final class BridgedChannel implements SessionChannel {

    /** Where channels live in a sandbox: its own temporary directory, which no other sandbox sees. */
    static final String ROOT = "/tmp/.sandbox-factory-channels";
    private static final Duration INSTALL_WAIT = Duration.ofMinutes(1);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(10);
    private static final Logger LOG = LoggerFactory.getLogger(BridgedChannel.class);

    /**
     * Writes the client script from its input and makes every slot's FIFOs anew (a client that comes
     * before a slot's bridge waits for it); says {@code installed} when done.
     */
    private static final String INSTALL = """
            dir=$1 slots=$2
            umask 022
            mkdir -p "$dir" && rm -f "$dir"/s*.up "$dir"/s*.down "$dir/connect.new" || exit 1
            cat >"$dir/connect.new" && chmod 555 "$dir/connect.new" && mv -f "$dir/connect.new" "$dir/connect" || exit 1
            k=0
            while [ "$k" -lt "$slots" ]; do
              mkfifo -m 666 "$dir/s$k.up" "$dir/s$k.down" || exit 1
              k=$((k + 1))
            done
            echo installed
            """;

    /**
     * One slot's bridge: up FIFO to output, input to down FIFO; fresh FIFOs once the input ends. The
     * copies are {@code dd}, not {@code cat}: busybox's {@code cat} copies with {@code sendfile}, which
     * can keep a FIFO locked while it waits for more input (see {@link ChannelFiles#clientScript}).
     */
    private static final String BRIDGE = """
            up="$1/s$2.up" down="$1/s$2.down"
            fresh() { rm -f "$up" "$down" && mkfifo -m 666 "$up" "$down"; }
            { [ -p "$up" ] && [ -p "$down" ]; } || fresh || exit 3
            exec 5<>"$down" 6<>"$up"
            dd bs=65536 status=none <&6 5>&- &
            dd bs=65536 status=none >&5 6<&-
            fresh
            kill "$!" 2>/dev/null
            exit 0
            """;

    /** Removes the FIFOs once the factory stops serving: a client then says nothing serves the channel. */
    private static final String REMOVE = "rm -f \"$1\"/s*.up \"$1\"/s*.down";

    private final StreamingSandbox sandbox;
    private final String name;
    private final String directory;
    private final ChannelHandler handler;
    private final Set<SandboxStream> live = ConcurrentHashMap.newKeySet();
    private final List<Thread> slots = new ArrayList<>();
    private final Object wake = new Object();
    private volatile boolean closed;
    private volatile boolean sandboxGone;
    private volatile Thread cleanup;

    private BridgedChannel(StreamingSandbox sandbox, String name, ChannelHandler handler) {
        this.sandbox = sandbox;
        this.name = name;
        this.directory = ROOT + "/" + name;
        this.handler = handler;
    }

    /**
     * Installs the channel named {@code name} (letters, digits, '-') in {@code sandbox} (running)
     * and starts serving its slots.
     *
     * @throws IOException when the sandbox could not take the channel (no writable {@code /tmp}, no
     *     {@code mkfifo}, or its stream failed); nothing is served then
     */
    public static BridgedChannel open(StreamingSandbox sandbox, String name, ChannelHandler handler) throws IOException {
        Objects.requireNonNull(sandbox, "sandbox");
        Objects.requireNonNull(handler, "handler");
        if (!name.matches("[A-Za-z0-9-]{1,64}")) {
            throw new IllegalArgumentException("Channel name '" + name + "' is invalid; it must be 1-64 letters, digits or '-'.");
        }
        BridgedChannel channel = new BridgedChannel(sandbox, name, handler);
        channel.install();
        for (int k = 0; k < HostChannel.SLOTS; k++) {
            int slot = k;
            Thread thread = new Thread(() -> channel.serveLoop(slot), "sandbox-factory-bridge-" + name + "-" + k);
            thread.setDaemon(true);
            channel.slots.add(thread);
            thread.start();
        }
        return channel;
    }

    @Override
    public String client() {
        return directory + "/connect";
    }

    @Override
    public boolean serving() {
        return !closed && !sandboxGone;
    }

    /**
     * Stops serving: every bridge's input ends (a connection in progress is cut) and, once every
     * bridge has exited, the slots' FIFOs are removed from the sandbox — in the background, as the
     * sandbox may be stopping.
     */
    @Override
    public synchronized void close() {
        if (cleanup != null) {
            return;
        }
        closed = true;
        synchronized (wake) {
            wake.notifyAll();
        }
        live.forEach(BridgedChannel::endInput);
        cleanup = new Thread(() -> {
            for (Thread slot : slots) {
                try {
                    slot.join(INSTALL_WAIT.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            try (SandboxStream stream = sandbox.openStream(List.of("sh", "-c", REMOVE, "sh", directory))) {
                stream.input().close();
                stream.output().transferTo(OutputStream.nullOutputStream());
            } catch (IOException | RuntimeException e) {
                LOG.debug("Channel {}'s FIFOs were not removed from its sandbox: {}", name, e.toString());
            }
        }, "sandbox-factory-bridge-" + name + "-cleanup");
        cleanup.setDaemon(true);
        cleanup.start();
    }

    /** Waits up to {@code wait} for a closed channel to have removed its FIFOs; false when it has not (yet). */
    boolean awaitCleanup(Duration wait) throws InterruptedException {
        Thread running = cleanup;
        if (running == null) {
            return false;
        }
        running.join(wait.toMillis());
        return !running.isAlive();
    }

    private void install() throws IOException {
        SandboxStream stream = sandbox.openStream(List.of("sh", "-c", INSTALL, "sh", directory, Integer.toString(HostChannel.SLOTS)));
        CompletableFuture<byte[]> said = CompletableFuture.supplyAsync(() -> {
            try {
                return stream.output().readNBytes(4096);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        try (stream) {
            stream.input().write(ChannelFiles.clientScript(name, HostChannel.SLOTS).getBytes(StandardCharsets.UTF_8));
            stream.input().close();
            String output = new String(said.get(INSTALL_WAIT.toNanos(), TimeUnit.NANOSECONDS), StandardCharsets.UTF_8);
            if (!output.strip().equals("installed")) {
                throw new IOException("the channel could not be installed in " + ROOT + " of the sandbox (it needs a writable /tmp"
                        + " and mkfifo)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while the channel was installed in the sandbox", e);
        } catch (ExecutionException e) {
            throw new IOException("the sandbox's stream failed while the channel was installed: " + e.getCause().getMessage(), e);
        } catch (TimeoutException e) {
            throw new IOException("the sandbox did not install the channel within " + INSTALL_WAIT.toSeconds() + " s", e);
        }
    }

    private void serveLoop(int slot) {
        int failures = 0;
        while (!closed) {
            boolean served = false;
            SandboxStream stream;
            try {
                stream = sandbox.openStream(List.of("sh", "-c", BRIDGE, "sh", directory, Integer.toString(slot)));
            } catch (SandboxDestroyedException | SandboxNotReadyException gone) {
                // Its sandbox stopped or is gone, and the channel with it: a start makes the session's channel anew.
                LOG.debug("Channel {} stops: its sandbox is gone ({}).", name, gone.getMessage());
                sandboxGone = true;
                return;
            } catch (RuntimeException e) {
                if (!closed && failures == 0) {
                    LOG.warn("Channel {} could not start the bridge of slot {} in its sandbox; retrying: {}", name, slot, e.toString());
                }
                backOff(++failures);
                continue;
            }
            live.add(stream);
            InputStream fromClient = new BufferedInputStream(stream.output());
            try {
                served = !closed && serve(fromClient, stream.input());
            } finally {
                // The slot's next bridge starts only after this one made the FIFOs anew and exited (its output ended).
                endInput(stream);
                try {
                    fromClient.transferTo(OutputStream.nullOutputStream());
                } catch (IOException e) {
                    // The bridge's stream broke: its program is gone with it.
                }
                stream.close();
                live.remove(stream);
            }
            failures = served ? 0 : failures + 1;
            if (failures > 0) {
                backOff(failures);
            }
        }
    }

    /** Serves one connection on a bridge; false when the bridge ended before a client came (its sandbox stopped). */
    private boolean serve(InputStream fromClient, OutputStream toClient) {
        try {
            String header = ChannelHeader.read(fromClient, toClient);
            if (header != null) {
                handler.serve(header, fromClient, toClient);
            }
            toClient.flush();
            return true;
        } catch (ClosedChannelException e) {
            return false;
        } catch (IOException | RuntimeException e) {
            if (!closed) {
                LOG.warn("A connection on channel {} failed: {}", name, e.toString());
            }
            return true;
        }
    }

    private static void endInput(SandboxStream stream) {
        try {
            stream.input().close();
        } catch (IOException e) {
            // The bridge is gone already.
        }
    }

    private void backOff(int failures) {
        long millis = Math.min(MAX_BACKOFF.toMillis(), 200L * failures);
        synchronized (wake) {
            if (!closed) {
                try {
                    wake.wait(millis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    closed = true;
                }
            }
        }
    }
}
