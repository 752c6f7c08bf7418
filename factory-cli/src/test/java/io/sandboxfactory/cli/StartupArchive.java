package io.sandboxfactory.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * How the tests start {@code factory.jar}: with the JVM options {@code ./factory} gives it and a
 * class-data-sharing archive like the one {@code ./factory} records after a build, so that a CLI
 * process here costs what a user's costs (about half the CPU time of a plain {@code java -jar} on
 * the 2-core machine; the CLI suites start well over a thousand of them).
 *
 * <p>The archive ({@code factory-it.jsa} beside the jar) is recorded once per build of the jar from
 * an in-process {@code open} of a throwaway local session, by whichever test JVM comes first (a file
 * lock keeps the other out), proven usable and only then renamed into place. If it cannot be made,
 * the commands run without it, as {@code ./factory}'s do; only their start-up is slower.
 */
final class StartupArchive {

    /** The launcher's line {@code jvm=(...)}: the options of a short-lived command. */
    private static final Pattern LAUNCHER_JVM_LINE = Pattern.compile("jvm=\\((.*)\\)");

    private StartupArchive() {
    }

    /** The options that start {@link #jar()}: {@code ./factory}'s and, when there is one, the archive's. */
    static List<String> jvmOptions() {
        return Holder.OPTIONS;
    }

    /** The archive the CLI processes map, when it could be made. */
    static Optional<Path> archive() {
        return Holder.ARCHIVE;
    }

    /** The options that make a JVM map {@link #archive()}; none without one. */
    static List<String> archiveOptions() {
        return Holder.ARCHIVE_OPTIONS;
    }

    /** The jar every CLI test runs, from the build (the {@code factory.jar} property) or the module's target directory. */
    static Path jar() {
        return Path.of(System.getProperty("factory.jar", "target/factory.jar")).toAbsolutePath();
    }

    /** Made on first use in this JVM; the class initialisation keeps a second thread out. */
    private static final class Holder {
        private static final List<String> LAUNCHER_OPTIONS = launcherOptions(jar());
        private static final Optional<Path> ARCHIVE = freshOrRecorded(jar(), LAUNCHER_OPTIONS);
        private static final List<String> ARCHIVE_OPTIONS = ARCHIVE.map(a -> List.of("-XX:SharedArchiveFile=" + a, "-Xshare:auto"))
                .orElse(List.of());
        private static final List<String> OPTIONS = Stream.concat(LAUNCHER_OPTIONS.stream(), ARCHIVE_OPTIONS.stream()).toList();
    }

    /**
     * The JVM options {@code ./factory} gives a short-lived command, read from its {@code jvm=(…)}
     * line (the repository root is the jar's module's parent), so the tests cannot drift from it.
     */
    private static List<String> launcherOptions(Path jar) {
        Path launcher = jar.getParent().getParent().getParent().resolve("factory");
        try (Stream<String> lines = Files.lines(launcher)) {
            Matcher jvm = lines.map(LAUNCHER_JVM_LINE::matcher).filter(Matcher::matches).findFirst()
                    .orElseThrow(() -> new IllegalStateException(launcher + " has no 'jvm=(...)' line to take the CLI's JVM options from"));
            return List.of(jvm.group(1).trim().split("\\s+"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Optional<Path> freshOrRecorded(Path jar, List<String> launcherOptions) {
        Path archive = jar.resolveSibling("factory-it.jsa");
        try (FileChannel lockFile = FileChannel.open(jar.resolveSibling("factory-it.jsa.lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE); FileLock ignored = lockFile.lock()) {
            if (fresh(archive, jar) || record(jar, archive, launcherOptions)) {
                return Optional.of(archive);
            }
            System.err.println("StartupArchive: could not record " + archive + "; CLI processes start without it");
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean fresh(Path archive, Path jar) throws IOException {
        return Files.isRegularFile(archive)
                && Files.getLastModifiedTime(archive).compareTo(Files.getLastModifiedTime(jar)) > 0;
    }

    private static boolean record(Path jar, Path archive, List<String> launcherOptions) throws IOException {
        Path work = Files.createTempDirectory("factory-it-cds");
        Path recorded = archive.resolveSibling(archive.getFileName() + ".tmp");
        try {
            List<String> java = new ArrayList<>(List.of(CliProcess.javaBin()));
            java.addAll(launcherOptions);
            Path repo = work.resolve("repo");
            Map<String, String> env = Map.of("FACTORY_DAEMON", "off", "XDG_CONFIG_HOME", work.toString());
            boolean ok = succeeds(work, env, "git", "init", "-q", "-b", "main", repo.toString())
                    && succeeds(work, env, "git", "-C", repo.toString(), "-c", "user.name=factory", "-c", "user.email=factory@localhost",
                            "-c", "commit.gpgsign=false", "commit", "-q", "--allow-empty", "-m", "train")
                    && succeeds(work, env, command(java, List.of("-XX:ArchiveClassesAtExit=" + recorded), jar, "--provider", "local",
                            "--state-dir", work.resolve("state").toString(), "--quiet", "open", "train", "--repo", repo.toString(),
                            "--branch", "train"))
                    // A truncated archive can crash the JVM that maps it: prove it with -Xshare:on first.
                    && succeeds(work, env, command(java, List.of("-XX:SharedArchiveFile=" + recorded, "-Xshare:on"), jar, "--version"));
            if (ok) {
                Files.move(recorded, archive, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
            return ok;
        } finally {
            Files.deleteIfExists(recorded);
            GitRepos.deleteRecursively(work);
        }
    }

    /** {@code java} (the JVM and {@code ./factory}'s options), {@code archiveOptions}, then the jar and its arguments. */
    private static List<String> command(List<String> java, List<String> archiveOptions, Path jar, String... args) {
        List<String> command = new ArrayList<>(java);
        command.addAll(archiveOptions);
        command.addAll(List.of("-jar", jar.toString()));
        command.addAll(List.of(args));
        return command;
    }

    private static boolean succeeds(Path cwd, Map<String, String> env, String... command) {
        return succeeds(cwd, env, List.of(command));
    }

    private static boolean succeeds(Path cwd, Map<String, String> env, List<String> command) {
        return CliProcess.exec(command, cwd, env).exitCode() == 0;
    }
}
