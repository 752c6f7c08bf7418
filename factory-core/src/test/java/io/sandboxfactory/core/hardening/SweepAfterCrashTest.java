package io.sandboxfactory.core.hardening;

import io.sandboxfactory.api.capability.SandboxListing;
import io.sandboxfactory.api.StartOutcome;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.session.SetupCommandException;
import io.sandboxfactory.core.testing.RecordingListener;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Orphans after a crash (Hardening, point 3; issue 44, point 1): {@code SessionFleet.sweep()},
 * run from a fresh process that holds no session itself, removes the local sandboxes that no live
 * session owns — one whose session the store does not know, one whose first open crashed (its
 * lease left behind by a dead host, or expired), with its record — together with the commands the
 * dead host left running in them; {@code forgetUnfinishedOpens()} deletes the record of a first
 * open that crashed before its sandbox existed. Neither touches a live session: one another live
 * process holds, one a live process is opening right now, one the user opened and stopped. A first
 * open whose setup failed left nothing to sweep: the failed open undid itself.
 */
class SweepAfterCrashTest {

    @TempDir
    Path tmp;
    HardeningRig rig;
    Path repo;
    final List<ChildProcess> children = new ArrayList<>();

    @BeforeEach
    void rig() throws Exception {
        // About what a dead host leaves running on the host and its records: the provider without isolation.
        rig = new HardeningRig(tmp, Optional.of("none"));
        repo = rig.repository("site", false);
    }

    @AfterEach
    void cleanup() throws Exception {
        rig.release();
        for (ChildProcess child : children) {
            child.close();
        }
    }

    private ChildProcess host(String session, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("repo=" + repo, "session=" + session, "setup=" + rig.setupCommand()));
        args.addAll(List.of(more));
        ChildProcess child = ChildProcess.start(tmp.resolve("logs"), session, OpenSessionChild.class, rig.childArgs(args.toArray(String[]::new)));
        children.add(child);
        return child;
    }

    private SessionSpec spec(String id) {
        return SessionSpec.builder(id).repository(repo.toString()).branch("work").build();
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(path);
            }
        }
    }

    @Test
    void sweepRemovesWhatNoLiveSessionOwnsAndNeverTouchesALiveOne() throws Exception {
        // Open, then lose the record: nothing knows this sandbox any more.
        try (SandboxFactory earlier = rig.factory(new RecordingListener())) {
            earlier.openSession(spec("unknown"));
            earlier.sessionStore().delete("unknown");
            earlier.openSession(spec("stopped"));
            earlier.retire("stopped", RetireMode.STOP);
            assertThatThrownBy(() -> earlier.openSession(SessionSpec.builder("setup-failed").repository(repo.toString())
                    .branch("work").setupCommands("exit 3").build())).isInstanceOf(SetupCommandException.class);
            assertThat(earlier.sessionStore().find("setup-failed")).as("the record of a failed first open").isEmpty();
            assertThat(rig.sessionDirectory("setup-failed")).as("the sandbox of a failed first open").doesNotExist();
        }
        // A host that opened its session and keeps it.
        ChildProcess holder = host("held", "hold=true");
        holder.awaitLine("HOLDING"::equals);
        // Hosts parked in their setup: one is killed (its first open crashed), one lives on (an open in flight).
        rig.block("setup");
        ChildProcess crashed = host("crashed");
        rig.awaitParked(1, crashed);
        crashed.kill();
        // One crashed before its sandbox existed: what is left of it is its record and its lease.
        ChildProcess crashedEarly = host("crashed-early");
        rig.awaitParked(2, crashedEarly);
        crashedEarly.kill();
        deleteTree(rig.sessionDirectory("crashed-early"));
        ChildProcess crashedElsewhere = host("crashed-elsewhere");
        rig.awaitParked(3, crashedElsewhere);
        crashedElsewhere.kill();
        // Its host cannot be proven dead from here, and its lease still runs.
        rig.moveLeaseToAnotherHost("crashed-elsewhere", 120_000);
        ChildProcess opening = host("opening");
        rig.awaitParked(4, opening);
        long orphanedSetup = rig.parkedPids().get(0);

        try (SandboxFactory sweeper = rig.factory(new RecordingListener())) {
            List<String> removed = sweeper.fleet().sweep().stream().map(SandboxListing::sessionId).sorted().toList();

            assertThat(removed).containsExactly("crashed", "unknown");
            assertThat(sweeper.fleet().forgetUnfinishedOpens()).containsExactly("crashed-early");
            assertThat(sweeper.sessionStore().list()).extracting(r -> r.sessionId())
                    .containsExactly("crashed-elsewhere", "held", "opening", "stopped");
            assertThat(rig.sessionDirectories()).containsExactly("crashed-elsewhere", "held", "opening", "stopped");
            assertThat(HardeningRig.awaitGone(orphanedSetup)).as("the dead host's setup, swept with its sandbox").isTrue();
            assertThat(rig.sessionDirectory("held").resolve("site/README.md")).exists();
            assertThat(rig.sessionDirectory("stopped").resolve("site/README.md")).exists();

            // Once the lease of the host elsewhere has run out, its crashed open is an orphan too.
            rig.moveLeaseToAnotherHost("crashed-elsewhere", -1);
            assertThat(sweeper.fleet().sweep()).extracting(SandboxListing::sessionId).containsExactly("crashed-elsewhere");
            assertThat(sweeper.sessionStore().find("crashed-elsewhere")).as("its record, with its sandbox").isEmpty();
            assertThat(sweeper.fleet().forgetUnfinishedOpens()).isEmpty();

            // A swept session opens again from scratch.
            rig.unblockAll();
            assertThat(sweeper.openSession(spec("crashed")).sandbox().lastStartOutcome()).contains(StartOutcome.CREATED);
        }
        holder.closeStdin();
        holder.awaitSuccess();
    }
}
