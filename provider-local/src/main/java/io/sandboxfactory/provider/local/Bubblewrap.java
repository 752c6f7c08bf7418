package io.sandboxfactory.provider.local;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The bubblewrap ({@code bwrap}) command line that puts a process, and everything it starts, inside
 * a session's boundary: new mount, pid, ipc and uts namespaces, a network namespace holding only
 * its own loopback unless the host's network was asked for, every capability dropped. Not {@code
 * --die-with-parent}: that SIGKILLs everything when the JVM dies, leaving git's lock files behind for
 * the next open to trip on; the fork server inside ends its commands with SIGTERM first when its
 * stdin ends (the JVM is gone), then exits, and the pid namespace with every other process of the
 * session goes with it. The file system is an empty tmpfs holding: the host's system directories read-only
 * ({@link #SYSTEM}), a curated part of {@code /etc} ({@link #ETC}) with a synthesized {@code passwd}
 * and {@code group}, a private {@code /proc}, {@code /dev} and {@code /tmp}, the session's private
 * {@code HOME}, the host directories the core asked for read-only, and the session directory
 * read-write, each at its host path. Nothing else of the host (its homes, the state directory,
 * other sessions, the Docker socket) exists inside.
 *
 * @param program the {@code bwrap} executable
 * @param hostNetwork whether the boundary shares the host's network
 */
record Bubblewrap(String program, boolean hostNetwork) {

    /** The Debian package that provides {@code bwrap}. */
    static final String PACKAGE = "bubblewrap";

    /** Where {@code bwrap} is looked for. */
    static final String DEFAULT_PROGRAM = "/usr/bin/bwrap";

    /** System directories bound read-only (or recreated as the links they are, on a merged-/usr system). */
    private static final List<String> SYSTEM = List.of("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32");

    /**
     * What of {@code /etc} sh, git, perl, ssh and common toolchains read: certificates, the linker
     * cache, name resolution, time zone, git's system config; plus every {@code /etc/java-*} (a JDK's
     * {@code conf} links there).
     */
    private static final List<String> ETC = List.of("/etc/ssl", "/etc/ca-certificates", "/etc/ca-certificates.conf", "/etc/pki",
            "/etc/alternatives", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/resolv.conf", "/etc/hosts",
            "/etc/host.conf", "/etc/nsswitch.conf", "/etc/gitconfig", "/etc/localtime", "/etc/timezone", "/etc/perl",
            "/etc/protocols", "/etc/services", "/etc/mime.types", "/etc/os-release", "/etc/debian_version", "/etc/shells",
            "/etc/profile", "/etc/environment", "/etc/locale.alias", "/etc/default/locale", "/etc/inputrc", "/etc/bash.bashrc",
            "/etc/ssh/ssh_config", "/etc/ssh/ssh_config.d", "/etc/ssh/ssh_known_hosts", "/etc/maven", "/etc/python3",
            "/etc/npmrc", "/etc/mercurial", "/etc/subversion");

    /**
     * What a session inside this boundary sees of the host besides the system.
     *
     * @param hostDirectories bound read-only (what the core asks for)
     * @param volumes the configured {@code volumes}: a path, read-write unless it ends in {@code :ro}
     */
    record Session(Path directory, SessionPrivate privateDirectory, List<String> hostDirectories, List<String> volumes) {
    }

    /**
     * The arguments that run {@code command} inside the session's boundary.
     *
     * @param extraWritable further host directories bound read-write at their paths (the fork server's FIFOs)
     */
    List<String> command(Session session, List<Path> extraWritable, List<String> command) {
        List<String> args = new ArrayList<>(List.of(program, "--unshare-pid", "--unshare-ipc",
                "--unshare-uts", "--unshare-cgroup-try", "--cap-drop", "ALL", "--hostname", "sandbox", "--new-session"));
        if (!hostNetwork) {
            args.add("--unshare-net");
        }
        args.addAll(List.of("--tmpfs", "/"));
        for (String dir : SYSTEM) {
            bindSystem(args, Path.of(dir));
        }
        for (String entry : etc()) {
            args.addAll(List.of("--ro-bind-try", entry, entry));
        }
        SessionPrivate own = session.privateDirectory();
        args.addAll(List.of("--ro-bind", own.passwd().toString(), "/etc/passwd", "--ro-bind", own.group().toString(), "/etc/group",
                "--proc", "/proc", "--dev", "/dev", "--bind", own.tmp().toString(), "/tmp",
                "--bind", own.home().toString(), own.home().toString()));
        // Volumes first: a directory the core asks for stays read-only even inside a writable volume.
        for (String volume : session.volumes()) {
            boolean readOnly = volume.endsWith(":ro");
            String dir = volume.endsWith(":ro") || volume.endsWith(":rw") ? volume.substring(0, volume.length() - 3) : volume;
            if (Files.exists(Path.of(dir))) {
                args.addAll(List.of(readOnly ? "--ro-bind" : "--bind", dir, dir));
            }
        }
        for (String dir : session.hostDirectories()) {
            if (Files.exists(Path.of(dir))) {
                args.addAll(List.of("--ro-bind", dir, dir));
            }
        }
        String directory = session.directory().toString();
        args.addAll(List.of("--bind", directory, directory));
        for (Path dir : extraWritable) {
            args.addAll(List.of("--bind", dir.toString(), dir.toString()));
        }
        // Each command changes to its own directory; what waits between commands (the fork server) holds none of the session's.
        args.addAll(List.of("--chdir", "/", "--"));
        args.addAll(command);
        return args;
    }

    private static void bindSystem(List<String> args, Path dir) {
        if (Files.isSymbolicLink(dir)) {
            try {
                args.addAll(List.of("--symlink", Files.readSymbolicLink(dir).toString(), dir.toString()));
            } catch (IOException e) {
                // Unreadable link: left out, as a directory that is not there.
            }
        } else if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            args.addAll(List.of("--ro-bind", dir.toString(), dir.toString()));
        }
    }

    private static List<String> etc() {
        List<String> entries = new ArrayList<>(ETC);
        try (DirectoryStream<Path> javas = Files.newDirectoryStream(Path.of("/etc"), "java-*")) {
            javas.forEach(p -> entries.add(p.toString()));
        } catch (IOException e) {
            // No /etc to read: nothing more to bind.
        }
        return entries;
    }

    /**
     * Whether {@code program} can make a boundary here: it exists and runs {@code true} with the
     * namespaces and capability drop every session gets (it fails, for example, in a container
     * without the privileges to make namespaces, or where user namespaces are disabled).
     */
    static boolean works(String program) {
        if (!Files.isExecutable(Path.of(program))) {
            return false;
        }
        try {
            Process probe = new ProcessBuilder(program, "--unshare-pid", "--unshare-ipc", "--unshare-uts",
                    "--unshare-net", "--cap-drop", "ALL", "--ro-bind", "/", "/", "--", "/bin/sh", "-c", "exit 0")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            probe.getOutputStream().close();
            if (!probe.waitFor(30, TimeUnit.SECONDS)) {
                probe.destroyForcibly();
                return false;
            }
            return probe.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
