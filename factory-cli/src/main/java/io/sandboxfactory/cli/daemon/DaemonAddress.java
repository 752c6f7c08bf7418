package io.sandboxfactory.cli.daemon;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Where the factory daemon of one state directory listens: a Unix socket in {@code <state dir>/daemon/}
 * (a directory only its user may enter), named after this build of the CLI and this JVM, so that a
 * rebuilt jar never talks to a daemon of the old one. Not after the caller's environment: each
 * request carries it, and the daemon builds a factory per environment (see {@link
 * FactoryLauncher#fingerprint()}), so callers with different variables share one daemon.
 *
 * @param socket the daemon's socket
 * @param lock held by the live daemon for as long as it serves
 * @param log where the daemon writes what happens outside any request
 * @param failed left by a daemon that could not listen, so clients do not start one per command
 */
public record DaemonAddress(Path socket, Path lock, Path log, Path failed) {

    /** Unix socket paths longer than this do not fit in {@code sockaddr_un} on Linux. */
    private static final int MAX_SOCKET_PATH = 100;
    /** Shell bookkeeping that changes from call to call and that nothing in a factory reads. */
    private static final Set<String> VOLATILE_VARIABLES = Set.of("PWD", "OLDPWD", "_", "SHLVL", "COLUMNS", "LINES");

    /** The address for {@code stateDirectory}, if the directory exists and the path fits in a socket address. */
    static Optional<DaemonAddress> of(Path stateDirectory) {
        if (!Files.isDirectory(stateDirectory)) {
            return Optional.empty();
        }
        String stem = fnv(buildIdentity());
        Path socket = stateDirectory.toAbsolutePath().resolve("daemon").resolve(stem + ".sock");
        if (socket.toString().length() > MAX_SOCKET_PATH) {
            return Optional.empty();
        }
        return Optional.of(ofSocket(socket));
    }

    /** The address whose socket is {@code socket} (a {@code <stem>.sock}); the other files are {@code <stem>.*} beside it. */
    static DaemonAddress ofSocket(Path socket) {
        String name = socket.getFileName().toString();
        String stem = name.endsWith(".sock") ? name.substring(0, name.length() - ".sock".length()) : name;
        return new DaemonAddress(socket, socket.resolveSibling(stem + ".lock"), socket.resolveSibling(stem + ".log"),
                socket.resolveSibling(stem + ".failed"));
    }

    /** The environment without its volatile variables, in a canonical order, as one text. */
    public static String environmentIdentity(Map<String, String> environment) {
        StringBuilder text = new StringBuilder();
        for (Map.Entry<String, String> variable : new TreeMap<>(environment).entrySet()) {
            if (!VOLATILE_VARIABLES.contains(variable.getKey())) {
                text.append(variable.getKey()).append('=').append(variable.getValue()).append('\0');
            }
        }
        return text.toString();
    }

    /** Whether a daemon failed to listen here less than {@code within} ago. */
    boolean failedRecently(Duration within) {
        try {
            return Files.getLastModifiedTime(failed).toInstant().isAfter(Instant.now().minus(within));
        } catch (IOException e) {
            return false;
        }
    }

    /** Makes the daemon directory, readable by its user only. */
    void prepareDirectory() throws IOException {
        Path directory = socket.getParent();
        if (!Files.isDirectory(directory)) {
            Files.createDirectories(directory, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
    }

    /** The class path's files (path, size, time) and the JVM: what makes one build of the CLI differ from another. */
    private static String buildIdentity() {
        StringBuilder text = new StringBuilder();
        for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            File file = new File(entry);
            text.append(file.getAbsolutePath()).append('\0').append(file.length()).append('\0').append(file.lastModified()).append('\n');
        }
        return text.append(System.getProperty("java.home")).append('\0').append(System.getProperty("java.vm.version")).toString();
    }

    /**
     * FNV-1a, 64 bits, as hex. Not a MessageDigest: this runs at the start of every command, and the
     * name needs no secrecy (the directory is private), only to tell builds apart.
     */
    private static String fnv(String text) {
        long hash = 0xcbf29ce484222325L;
        for (int i = 0; i < text.length(); i++) {
            hash ^= text.charAt(i);
            hash *= 0x100000001b3L;
        }
        String hex = Long.toHexString(hash);
        return "0".repeat(16 - hex.length()) + hex;
    }
}
