package io.sandboxfactory.provider.local;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A snapshot of the host's processes with their process group and session, read from Linux's
 * {@code /proc}. Java's {@link ProcessHandle} does not expose groups or sessions, and a command's
 * backgrounded grandchildren leave its process tree when their parent exits, so this is the only
 * way to find them again after the command's shell is gone.
 */
final class ProcessTable {

    private static final Path PROC = Path.of("/proc");

    /**
     * One process: its pid, process group id, session id and start time (clock ticks after boot;
     * with the pid it names one process for the whole uptime, even when the pid is reused later).
     */
    record Entry(long pid, long processGroup, long session, long startTime) {

        /**
         * Whether this process belongs to the command whose shell is {@code leader}: it is in the
         * process group that shell leads, or in the session it leads (a shell started through
         * {@code setsid} leads both, and a job-control child may have left the group but not the session).
         */
        boolean ledBy(long leader) {
            return processGroup == leader || session == leader;
        }
    }

    private ProcessTable() {
    }

    /** Every process visible now, or empty where there is no {@code /proc} (not Linux). */
    static Optional<List<Entry>> snapshot() {
        if (!Files.isRegularFile(PROC.resolve("self/stat"))) {
            return Optional.empty();
        }
        List<Entry> entries = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(PROC, ProcessTable::isPidDirectory)) {
            for (Path dir : dirs) {
                read(dir).ifPresent(entries::add);
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        return Optional.of(entries);
    }

    /** One process, or empty when it is gone or there is no {@code /proc}. */
    static Optional<Entry> of(long pid) {
        return read(PROC.resolve(Long.toString(pid)));
    }

    /** The state letter of a process ({@code R}, {@code S}, {@code Z} for a zombie...), or empty when it is gone. */
    static Optional<String> state(long pid) {
        try {
            String stat = Files.readString(PROC.resolve(Long.toString(pid)).resolve("stat"));
            int close = stat.lastIndexOf(')');
            return close < 0 || close + 3 > stat.length() ? Optional.empty() : Optional.of(stat.substring(close + 2, close + 3));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static boolean isPidDirectory(Path dir) {
        String name = dir.getFileName().toString();
        return !name.isEmpty() && name.chars().allMatch(Character::isDigit);
    }

    private static Optional<Entry> read(Path dir) {
        String stat;
        try {
            stat = Files.readString(dir.resolve("stat"));
        } catch (IOException e) {
            return Optional.empty(); // exited while we listed
        }
        return parse(stat);
    }

    /** Parses one {@code /proc/<pid>/stat} line; the command name may itself hold spaces and parentheses. */
    static Optional<Entry> parse(String stat) {
        int open = stat.indexOf(' ');
        int close = stat.lastIndexOf(')');
        if (open <= 0 || close < 0 || close + 2 > stat.length()) {
            return Optional.empty();
        }
        String[] fields = stat.substring(close + 2).trim().split(" ");
        if (fields.length < 20) {
            return Optional.empty();
        }
        try {
            // After the name: state, ppid, pgrp, session, ... and starttime as the 20th (field 22 of proc(5)).
            return Optional.of(new Entry(Long.parseLong(stat.substring(0, open)),
                    Long.parseLong(fields[2]), Long.parseLong(fields[3]), Long.parseLong(fields[19])));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
