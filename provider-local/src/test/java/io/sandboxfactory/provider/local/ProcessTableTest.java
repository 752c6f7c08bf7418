package io.sandboxfactory.provider.local;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Reading process groups and sessions from {@code /proc}. */
class ProcessTableTest {

    @Test
    void parsesACommandNameWithSpacesAndParentheses() {
        String stat = "4242 (evil ) (name) S 1 4200 4100 0 -1 4194560 99 0 0 0 0 0 0 0 20 0 1 0 56106 3133440 407";

        assertThat(ProcessTable.parse(stat)).contains(new ProcessTable.Entry(4242, 4200, 4100, 56106));
    }

    @Test
    void rejectsGarbage() {
        assertThat(ProcessTable.parse("")).isEmpty();
        assertThat(ProcessTable.parse("12 (x)")).isEmpty();
        assertThat(ProcessTable.parse("x (y) S 1 2 3")).isEmpty();
        assertThat(ProcessTable.parse("12 (short) S 1 2 3 0 -1")).isEmpty();
    }

    @Test
    void theSnapshotShowsAProcessStartedWithSetsidLeadingItsOwnGroupAndSession() throws Exception {
        Process leader = new ProcessBuilder("/usr/bin/setsid", "/bin/sh", "-c", "exec sleep 300").start();
        try {
            long pid = leader.pid();
            // setsid runs in the child after fork: poll (bounded) until the child has become the leader.
            List<ProcessTable.Entry> entries = ProcessTable.snapshot().orElseThrow();
            for (int i = 0; i < 200 && entries.stream().noneMatch(e -> e.pid() == pid && e.session() == pid); i++) {
                Thread.sleep(25);
                entries = ProcessTable.snapshot().orElseThrow();
            }

            assertThat(entries).anyMatch(e -> e.pid() == pid && e.processGroup() == pid && e.session() == pid && e.startTime() > 0);
            assertThat(entries).anyMatch(e -> e.pid() == ProcessHandle.current().pid() && e.session() != pid);
        } finally {
            leader.destroyForcibly().waitFor();
        }
    }

    /**
     * What proc(5) shows for a process that is alive and neither stopped nor traced: running, sleeping,
     * or in an uninterruptible wait (D, seen under load while a process exec'd or paged in).
     */
    private static final List<String> LIVE_STATES = List.of("R", "S", "D");

    @Test
    void theStateTellsARunningProcessAZombieAndOneThatIsGone(@TempDir Path temp) throws Exception {
        // The background shell ends once 'go' exists, after its parent became 'sleep', which never
        // reaps it (the shell before the exec might have).
        Process parent = new ProcessBuilder("/bin/sh", "-c", "sh -c 'while [ ! -e go ]; do sleep 0.01; done' & echo $!; exec sleep 300")
                .directory(temp.toFile()).start();
        try {
            long child = Long.parseLong(new BufferedReader(new InputStreamReader(parent.getInputStream(), StandardCharsets.UTF_8)).readLine().strip());
            Path parentName = Path.of("/proc", Long.toString(parent.pid()), "comm");
            awaitCondition(() -> Files.readString(parentName).strip().equals("sleep"));
            assertThat(ProcessTable.state(parent.pid())).hasValueSatisfying(state -> assertThat(state).isIn(LIVE_STATES));
            assertThat(ProcessTable.state(child)).hasValueSatisfying(state -> assertThat(state).isIn(LIVE_STATES));

            Files.createFile(temp.resolve("go"));

            awaitCondition(() -> ProcessTable.state(child).equals(Optional.of("Z")));
        } finally {
            parent.destroyForcibly().waitFor();
        }
        assertThat(ProcessTable.state(parent.pid())).isEmpty();
    }

    private interface Condition {
        boolean holds() throws IOException;
    }

    /** Waits for a condition, bounded so that a failing test ends. */
    private static void awaitCondition(Condition condition) throws Exception {
        for (int i = 0; i < 3000 && !condition.holds(); i++) {
            Thread.sleep(10);
        }
        assertThat(condition.holds()).as("condition reached within 30 s").isTrue();
    }
}
