package io.sandboxfactory.api.support;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A host process that runs sandbox commands: host name, pid and start, so a process that is
 * provably gone can be told from one that is alive (or from a stranger that reuses its pid). A
 * provider records it with the commands it starts, so that a later process can end the commands of
 * a host that was killed before it could (the local and docker providers do).
 *
 * <p>The start is recorded twice: as a wall-clock instant, which every platform reports, and, where
 * the platform has one, as a stamp no clock change moves (on Linux the boot id and the clock ticks
 * from boot to the start, from {@code /proc}). The instant alone is not enough: on Linux the JDK
 * derives it from the boot time the kernel reports as the wall clock minus the uptime, and each JVM
 * reads that once, so after a step of the wall clock two JVMs see the same process start seconds
 * apart. When both sides have a stamp, the stamp decides.
 *
 * @param host the host name
 * @param pid the process id
 * @param startMillis when it started (epoch millis), or -1 when unknown
 * @param startStamp {@code <boot id>:<clock ticks from boot to the start>}, or empty when unknown
 *        (another platform, or a record of an earlier version)
 * @since 0.1.0
 */
public record HostProcess(String host, long pid, long startMillis, String startStamp) {

    private static final Path PROC = Path.of("/proc");
    /** Fixed for the life of the JVM: a reboot ends it. */
    private static final Optional<String> BOOT_ID = read(PROC.resolve("sys/kernel/random/boot_id")).map(String::trim)
            .filter(id -> !id.isEmpty() && !id.contains("/"));

    public HostProcess {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(startStamp, "startStamp");
        if (host.contains("/") || startStamp.contains("/")) {
            throw new IllegalArgumentException("A host process's host name and start stamp hold no '/' (the separator of its"
                    + " encoded form): '" + host + "', '" + startStamp + "'.");
        }
    }

    /** This JVM. */
    public static HostProcess current() {
        ProcessHandle self = ProcessHandle.current();
        return new HostProcess(hostName(), self.pid(), self.info().startInstant().map(Instant::toEpochMilli).orElse(-1L),
                startStampOf(self.pid()).orElse(""));
    }

    /**
     * Whether this process is provably gone: it ran on this host, and no process with its pid is
     * alive (a zombie counts as gone), or the one alive started at another time. A process on
     * another host is never provably gone.
     */
    public boolean isProvablyGone() {
        if (!host.equals(hostName())) {
            return false;
        }
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isEmpty() || !process.get().isAlive()) {
            return true;
        }
        return !startMatches(process.get(), startMillis, startStamp);
    }

    /**
     * Whether the live {@code process} may be the one recorded as started at {@code startMillis}
     * (epoch millis, -1 when unknown) with {@code startStamp} (empty when unknown). A mismatch means
     * the pid was reused by a stranger. The one place this rule lives.
     */
    public static boolean startMatches(ProcessHandle process, long startMillis, String startStamp) {
        return startMatches(startMillis, startStamp,
                () -> startStampOf(process.pid()),
                () -> process.info().startInstant().map(Instant::toEpochMilli));
    }

    /**
     * The rule, given what the live process reports: equal stamps when both sides have one (another
     * boot, or other ticks, is another process); otherwise an unknown start time on either side
     * matches, a known one within a second (the resolution of the start times platforms report).
     */
    static boolean startMatches(long startMillis, String startStamp, Supplier<Optional<String>> liveStamp,
            Supplier<Optional<Long>> liveMillis) {
        if (!startStamp.isEmpty()) {
            Optional<String> live = liveStamp.get();
            if (live.isPresent()) {
                return live.get().equals(startStamp);
            }
        }
        if (startMillis < 0) {
            return true;
        }
        Optional<Long> started = liveMillis.get();
        return started.isEmpty() || Math.abs(started.get() - startMillis) <= 1000;
    }

    /**
     * The start stamp of the live process {@code pid} on this host, where the platform has one (see
     * {@link #startStamp()}); empty elsewhere or once the process is gone.
     */
    public static Optional<String> startStampOf(long pid) {
        if (BOOT_ID.isEmpty()) {
            return Optional.empty();
        }
        return read(PROC.resolve(Long.toString(pid)).resolve("stat")).flatMap(HostProcess::startTicks)
                .map(ticks -> BOOT_ID.get() + ":" + ticks);
    }

    /** Field 22 of a {@code /proc/<pid>/stat} line (the command name before it may hold spaces and parentheses). */
    static Optional<Long> startTicks(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0 || close + 2 > stat.length()) {
            return Optional.empty();
        }
        String[] fields = stat.substring(close + 2).trim().split(" ");
        try {
            // After the name: state is field 3, so field 22 is the 20th.
            return fields.length < 20 ? Optional.empty() : Optional.of(Long.parseLong(fields[19]));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * {@code host/pid/startMillis}, then {@code /startStamp} when there is one: one token for an
     * environment variable or a record file (host names and stamps hold no '/').
     */
    public String encoded() {
        return host + "/" + pid + "/" + startMillis + (startStamp.isEmpty() ? "" : "/" + startStamp);
    }

    /** The host process {@link #encoded()} wrote, if {@code text} is one. */
    public static Optional<HostProcess> parse(String text) {
        String[] parts = text.split("/", -1);
        if (parts.length < 3 || parts.length > 4 || parts[0].isEmpty() || (parts.length == 4 && parts[3].isEmpty())) {
            return Optional.empty();
        }
        try {
            return Optional.of(new HostProcess(parts[0], Long.parseLong(parts[1]), Long.parseLong(parts[2]),
                    parts.length == 4 ? parts[3] : ""));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> read(Path file) {
        try {
            return Optional.of(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return Optional.ofNullable(System.getenv("HOSTNAME")).orElse("localhost");
        }
    }
}
