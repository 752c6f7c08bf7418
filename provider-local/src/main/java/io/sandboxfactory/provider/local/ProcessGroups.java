package io.sandboxfactory.provider.local;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * The process groups one sandbox's commands started, each led by a command's shell (its pid is the
 * id of its group, and of its session too when it was started through {@code setsid}; see {@link
 * ProcessTable.Entry#ledBy}). A group stays tracked
 * after its shell exits while processes it left in the background remain, so {@link #killAll()}
 * reaches them too.
 *
 * <p>Killing a group whose shell is gone must not hit a stranger that was given the same id
 * later. Linux keeps an id allocated while a group or session of that id has members, so a group is
 * provably still ours while one of the members we saw at the previous look (same pid, same start
 * time) is still in it. Without {@code /proc} (not Linux) only groups whose shell still runs are
 * killed. Thread-safe.
 */
final class ProcessGroups {

    /** One process for the whole uptime: a pid alone may be reused, a pid with its start time is not. */
    private record Member(long pid, long startTime) {
        static Member of(ProcessTable.Entry entry) {
            return new Member(entry.pid(), entry.startTime());
        }
    }

    private static final class Tracked {
        /** The shell; empty when it had exited before it could be looked up. */
        final Optional<ProcessHandle> leader;
        /** Members at the last look after the shell exited; null before that look. */
        volatile Set<Member> lastSeen;

        Tracked(Optional<ProcessHandle> leader) {
            this.leader = leader;
        }

        boolean leaderAlive() {
            return leader.map(ProcessHandle::isAlive).orElse(false);
        }
    }

    /** How many groups may be tracked before finished ones are looked at; see {@link #forgetFinishedNowAndThen()}. */
    private static final int MIN_TRACKED_BEFORE_LOOK = 32;

    private final Map<Long, Tracked> groups = new ConcurrentHashMap<>();
    private final AtomicInteger nextLook = new AtomicInteger(MIN_TRACKED_BEFORE_LOOK);

    /** Tracks the group the command's shell leads. */
    void add(Launcher.Launch command) {
        groups.put(command.pid(), new Tracked(command.leader()));
    }

    /** Stops tracking the group of a command that left nothing behind (its group was empty when its shell exited). */
    void forget(Launcher.Launch command) {
        groups.remove(command.pid());
    }

    /** Kills the group the command's shell leads and everything still in its process tree. */
    void kill(Launcher.Launch command) {
        terminate(command.pid(), new Tracked(command.leader()), ProcessTable.snapshot());
    }

    /** Kills every tracked group: running commands and what finished ones left in the background. */
    void killAll() {
        Optional<List<ProcessTable.Entry>> table = ProcessTable.snapshot();
        groups.forEach((group, tracked) -> terminate(group, tracked, table));
        forgetFinished();
    }

    /**
     * {@link #forgetFinished()} once the tracked groups doubled since the last time: reading every
     * process of the host costs more than a short command, and a group looked at late is judged
     * just as safely (see {@link #ourMembers}), so the cost is spread over many commands.
     */
    void forgetFinishedNowAndThen() {
        int tracked = groups.size();
        if (tracked < nextLook.get()) {
            return;
        }
        forgetFinished();
        nextLook.set(Math.max(MIN_TRACKED_BEFORE_LOOK, 2 * groups.size()));
    }

    /** Stops tracking groups whose shell exited and that have no member left; remembers the members of the others. */
    void forgetFinished() {
        Optional<List<ProcessTable.Entry>> table = ProcessTable.snapshot();
        groups.forEach((group, tracked) -> {
            if (tracked.leaderAlive()) {
                return;
            }
            List<ProcessTable.Entry> members = table.map(entries -> ourMembers(group, tracked, entries)).orElse(List.of());
            if (members.isEmpty()) {
                groups.remove(group, tracked);
            } else {
                tracked.lastSeen = members.stream().map(Member::of).collect(Collectors.toUnmodifiableSet());
            }
        });
    }

    /** The processes now in group (or session) {@code group} if it is provably still ours; else none. */
    private static List<ProcessTable.Entry> ourMembers(long group, Tracked tracked, List<ProcessTable.Entry> table) {
        List<ProcessTable.Entry> inSession = table.stream().filter(e -> e.ledBy(group)).toList();
        if (tracked.leaderAlive()) {
            return inSession; // an unreaped shell still holds its pid
        }
        Set<Member> seen = tracked.lastSeen;
        boolean ours = seen == null
                // The first look since the shell was reaped, however late: the id stays allocated while
                // the group has members, and a stranger given it since leads the group of that id.
                ? inSession.stream().noneMatch(e -> e.pid() == group)
                : inSession.stream().anyMatch(e -> seen.contains(Member.of(e)));
        return ours ? inSession : List.of();
    }

    private static void terminate(long group, Tracked tracked, Optional<List<ProcessTable.Entry>> table) {
        boolean leaderAlive = tracked.leaderAlive();
        // Taken before the kill: once the shell dies its children are reparented and out of reach.
        List<ProcessHandle> tree = tracked.leader.map(l -> l.descendants().toList()).orElse(List.of());
        List<ProcessTable.Entry> members = table.map(entries -> ourMembers(group, tracked, entries)).orElse(List.of());
        if (leaderAlive || !members.isEmpty()) {
            // The group first, in one signal: killing children one by one would let the shell see
            // them end and exit normally, reporting a killed command as a success.
            signalGroup(group);
            // Members that moved to another group of a setsid session (job control) need their own signal.
            members.stream().filter(e -> e.processGroup() != group)
                    .forEach(e -> ProcessHandle.of(e.pid()).ifPresent(ProcessHandle::destroyForcibly));
        }
        tracked.leader.ifPresent(ProcessHandle::destroyForcibly);
        // Children that left the group (setsid, setpgid) but were still in the tree.
        tree.forEach(ProcessHandle::destroyForcibly);
    }

    private static void signalGroup(long group) {
        try {
            // The shell's builtin kill: no dependency on a kill binary; "-N" addresses the whole group.
            Process kill = new ProcessBuilder("/bin/sh", "-c", "kill -9 -\"$1\" 2>/dev/null", "sh", Long.toString(group))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            kill.getOutputStream().close();
            if (!kill.waitFor(10, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
            }
        } catch (IOException e) {
            // Nothing else can signal a group from Java; the caller still kills the leader and the tree.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
