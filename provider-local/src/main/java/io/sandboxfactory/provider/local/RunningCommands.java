package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.support.HostProcess;
import io.sandboxfactory.api.support.Polling;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Executor;
import java.util.stream.Stream;

/**
 * The commands running in one session directory, recorded on disk while they run — one file per
 * command, named by the pid of its shell (which leads its own process group), under
 * {@code <root>/}{@value #DIRECTORY}{@code /<sessionId>/}, outside the workspace — so that another
 * host process can find them after the one that started them died.
 *
 * <p>Why: the fork server ends every command it runs when its host JVM dies, but nothing does so
 * for commands the {@code setsid} fallback ({@link ProcessLauncher}) started, nor when the fork
 * server was killed together with its host (SIGKILL to both). Such a command keeps running in the
 * session directory — holding git's {@code index.lock}, or finishing a setup whose marker will never
 * be written — while the next open works in the same directory. {@link #reapOrphans()} ends them:
 * SIGTERM first (git then removes its lock files), SIGKILL after a grace period. Commands of a live
 * host, and processes a finished command left in the background on purpose, are never touched by
 * it; {@link #killAll()} (stop, destroy, sweep) ends every recorded command whoever started it.
 *
 * <p>Records are written by a recorder thread right after the start, not by the command's thread,
 * so a command does not wait for the file system; a command that already returned by then is not
 * recorded at all. A host killed in between leaves a command no record names; the fork server
 * still ends it. A returned command's record is kept as a spare that the next record is written
 * into ({@link RecordSpares}), so a command allocates no inode.
 */
final class RunningCommands {

    /** The directory, under the sessions root, holding one directory of records per session. */
    static final String DIRECTORY = ".sandbox-factory-running";

    private static final Duration TERM_GRACE = Duration.ofSeconds(3);
    private static final Duration KILL_GRACE = Duration.ofSeconds(2);

    private final Path records;
    private final HostProcess self;
    private final Executor recorder;
    private final RecordSpares spares = new RecordSpares();

    /**
     * @param sessionDirectory {@code <root>/<sessionId>}
     * @param recorder writes and deletes the records, in submission order, off the commands' threads
     */
    RunningCommands(Path sessionDirectory, HostProcess self, Executor recorder) {
        this.records = sessionDirectory.resolveSibling(DIRECTORY).resolve(sessionDirectory.getFileName());
        this.self = self;
        this.recorder = recorder;
    }

    /**
     * Records that {@code leader}, just started by this host, runs a command. The record is written
     * on the recorder thread, so the command does not wait for the file system; a command that
     * finished before the recorder got to it is never written at all.
     */
    Recording started(Launcher.Launch command) {
        Recording recording = new Recording(command);
        recorder.execute(recording::write);
        return recording;
    }

    /** Forgets the command: it returned. */
    void finished(Recording recording) {
        if (recording.finish()) {
            recorder.execute(recording::delete);
        }
    }

    /** One command's record: not yet written, written, or finished (then never written). */
    final class Recording {
        private final long pid;
        private final Optional<ProcessHandle> leader;
        private boolean written;
        private boolean finished;

        private Recording(Launcher.Launch command) {
            this.pid = command.pid();
            this.leader = command.leader();
        }

        private synchronized void write() {
            // The start stamp from /proc: ProcessHandle.info() also looks up the user, which cost more
            // than the rest of the record.
            Optional<String> stamp = leader.isEmpty() ? Optional.empty() : HostProcess.startStampOf(pid);
            if (finished || leader.isEmpty() || (stamp.isEmpty() && !leader.get().isAlive())) {
                return; // the shell was gone before it was looked up: the command finished, and what it left behind is not reaped
            }
            String start = stamp.map(s -> "leaderStartStamp=" + s)
                    .orElseGet(() -> "leaderStart=" + leader.get().info().startInstant().map(Instant::toEpochMilli).orElse(-1L));
            String text = start + "\n"
                    + "host=" + self.host() + "\nhostPid=" + self.pid() + "\nhostStart=" + self.startMillis() + "\n"
                    + "hostStartStamp=" + self.startStamp() + "\n";
            for (int attempt = 0; attempt < 2; attempt++) {
                try {
                    if (!Files.isDirectory(records)) {
                        // Only when missing: createDirectories on an existing directory builds and drops an exception each time.
                        Files.createDirectories(records);
                    }
                    // Written whole, then renamed: a reaper never reads half a record. Into a spare when there is
                    // one: overwriting a file allocates no inode (see RecordSpares).
                    Path partial = spares.take().orElseGet(() -> records.resolve(pid + ".partial"));
                    RecordSpares.overwrite(partial, text.getBytes(StandardCharsets.UTF_8));
                    Files.move(partial, records.resolve(Long.toString(pid)), StandardCopyOption.ATOMIC_MOVE,
                            StandardCopyOption.REPLACE_EXISTING);
                    written = true;
                    return;
                } catch (IOException e) {
                    // Once more: a reaper may have removed the (then empty) directory in between. After
                    // that, best effort: an unrecorded command only cannot be reaped after this host dies.
                }
            }
        }

        /** Marks the command finished; whether its record was written and must be deleted. */
        private synchronized boolean finish() {
            finished = true;
            return written;
        }

        private void delete() {
            try {
                // The directory stays for the next command; killAll() and reapOrphans() remove it with the spares.
                spares.keep(records.resolve(Long.toString(pid)));
            } catch (IOException e) {
                // A stale record is harmless: its leader is gone, so reaping it only deletes the file.
            }
        }
    }

    /** Ends the recorded commands whose host process is provably gone. */
    void reapOrphans() {
        end(false);
    }

    /** Ends every recorded command, whoever started it. */
    void killAll() {
        end(true);
    }

    private void end(boolean all) {
        List<Path> recorded = list();
        if (recorded.isEmpty()) {
            removeLeftovers();
            return;
        }
        List<ProcessHandle> victims = new ArrayList<>();
        List<Path> done = new ArrayList<>();
        Optional<List<ProcessTable.Entry>> table = ProcessTable.snapshot();
        for (Path record : recorded) {
            Optional<Record> parsed = Record.read(record);
            if (parsed.isEmpty()) {
                done.add(record);
                continue;
            }
            Record r = parsed.get();
            if (!all && !r.host().isProvablyGone()) {
                continue;
            }
            List<ProcessHandle> members = r.members(table);
            victims.addAll(members);
            done.add(record);
        }
        terminate(victims);
        for (Path record : done) {
            try {
                Files.deleteIfExists(record);
            } catch (IOException e) {
                // Reaping it again later finds its processes gone.
            }
        }
        removeLeftovers();
    }

    /**
     * Deletes the spares and half-written records ({@link RecordSpares}), then the directory if that
     * left it empty. A writer whose file goes meanwhile writes its record anew.
     */
    private void removeLeftovers() {
        for (Path spare : list("*{" + RecordSpares.SUFFIX + ",.partial}")) {
            try {
                Files.deleteIfExists(spare);
            } catch (IOException e) {
                // The directory then stays, as it does for a record still there.
            }
        }
        try {
            Files.deleteIfExists(records);
        } catch (IOException e) {
            // Not empty: a command is still running (or just started); its record stays.
        }
    }

    private List<Path> list() {
        return list("[0-9]*").stream().filter(f -> f.getFileName().toString().matches("\\d+")).toList();
    }

    private List<Path> list(String glob) {
        if (!Files.isDirectory(records)) {
            return List.of();
        }
        List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(records, glob)) {
            files.forEach(found::add);
        } catch (IOException e) {
            return List.of();
        }
        return found;
    }

    /** SIGTERM, so git can remove its locks and half-made clones; then SIGKILL for what is left. */
    private static void terminate(List<ProcessHandle> victims) {
        if (victims.isEmpty()) {
            return;
        }
        victims.forEach(ProcessHandle::destroy);
        if (!awaitGone(victims, TERM_GRACE)) {
            victims.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
            awaitGone(victims, KILL_GRACE);
        }
    }

    private static boolean awaitGone(List<ProcessHandle> processes, Duration grace) {
        return Polling.until(grace, Duration.ofMillis(20), () -> processes.stream().noneMatch(ProcessHandle::isAlive));
    }

    /**
     * One recorded command: its shell's pid and start, and the host process that started it.
     *
     * @param leaderStart the shell's start in epoch milliseconds (without {@code /proc}), or -1
     * @param leaderStartTicks the shell's start in clock ticks after boot (records of earlier versions), or -1
     * @param leaderStartStamp the shell's {@link HostProcess#startStampOf start stamp}, or empty
     */
    private record Record(long leader, long leaderStart, long leaderStartTicks, String leaderStartStamp, HostProcess host) {

        static Optional<Record> read(Path file) {
            try {
                Properties p = new Properties();
                try (var in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                    p.load(in);
                }
                return Optional.of(new Record(Long.parseLong(file.getFileName().toString()),
                        Long.parseLong(p.getProperty("leaderStart", "-1")), Long.parseLong(p.getProperty("leaderStartTicks", "-1")),
                        p.getProperty("leaderStartStamp", ""),
                        new HostProcess(p.getProperty("host"), Long.parseLong(p.getProperty("hostPid")),
                                Long.parseLong(p.getProperty("hostStart")), p.getProperty("hostStartStamp", ""))));
            } catch (IOException | RuntimeException e) {
                return Optional.empty();
            }
        }

        /**
         * The processes of the command: everything in the group (or session) its shell leads. A shell pid now
         * held by a process that started at another time (or in another boot) was reused by a stranger:
         * nothing is ours. Without {@code /proc} only the shell and its descendants are found.
         */
        List<ProcessHandle> members(Optional<List<ProcessTable.Entry>> table) {
            Optional<ProcessHandle> shell = ProcessHandle.of(leader).filter(ProcessHandle::isAlive);
            if (shell.isPresent() && leaderStartTicks >= 0) {
                Optional<ProcessTable.Entry> now = ProcessTable.of(leader);
                if (now.isPresent() && now.get().startTime() != leaderStartTicks) {
                    return List.of();
                }
            } else if (shell.isPresent() && !HostProcess.startMatches(shell.get(), leaderStart, leaderStartStamp)) {
                return List.of();
            }
            if (table.isEmpty()) {
                return shell.map(s -> Stream.concat(Stream.of(s), s.descendants()).toList()).orElse(List.of());
            }
            // Linux keeps a group id allocated while the group has members, so they are still the command's. The
            // shell's descendants too: a recorded boundary's init leads a session of its own (it is recorded as a ProcessLauncher.ProcessLaunch).
            return Stream.concat(table.get().stream().filter(e -> e.ledBy(leader)).flatMap(e -> ProcessHandle.of(e.pid()).stream()),
                    shell.stream().flatMap(ProcessHandle::descendants)).distinct().toList();
        }
    }
}
