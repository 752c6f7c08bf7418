package io.sandboxfactory.store.postgres.fleet;

import io.sandboxfactory.api.StartOutcome;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.hardening.ChildProcess;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionPhase;
import io.sandboxfactory.store.api.SessionRecord;
import io.sandboxfactory.core.testing.RecordingListener;
import io.sandboxfactory.store.postgres.testing.TestPostgres;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 18, point 5: hosts that share one PostgreSQL store and one provider (a local provider
 * root all of them reach), each a JVM with a host name and a state directory of its own, so the
 * store's leases are all that keeps them apart: no host can judge another dead by its pid.
 * Every wait is for a condition (a line a host prints, a setup parked at its gate, a process
 * state); the short lease of the host that dies or stops is what the survivor waits out.
 */
class FleetContentionIT {

    private static final Pattern RESULT = Pattern.compile("RESULT opens=(\\d+) failed=(\\d+) instances=(\\d+) created=(\\d+)");
    /** The lease of a host that is killed or paused: short, so its expiry is waited out quickly. */
    private static final Duration SHORT_LEASE = Duration.ofMillis(1500);
    private static final Duration CONNECT = Duration.ofSeconds(5);

    @TempDir
    Path tmp;
    FleetRig rig;
    String schema;

    @BeforeAll
    static void server() {
        TestPostgres.require();
        FleetRig.requireHostNames();
    }

    @BeforeEach
    void rig() throws Exception {
        rig = new FleetRig(tmp, List.of("fleet-1", "fleet-2", "fleet-3", "fleet-4", "host-a", "survivor"));
        schema = TestPostgres.freshSchema("fleet");
    }

    @AfterEach
    void cleanup() throws Exception {
        rig.close();
    }

    private Map<String, String> store(Duration leaseTtl) {
        return TestPostgres.storeEnvironment(TestPostgres.url(), schema, leaseTtl, CONNECT);
    }

    private SessionRecord record(SandboxFactory factory, String session) {
        return factory.sessionStore().find(session).orElseThrow(() -> new AssertionError("no record of " + session));
    }

    @Test
    void fourHostsOfFiftyThreadsOpeningOneSessionMakeOneSandboxAndRunItsSetupOnce() throws Exception {
        Path go = tmp.resolve("go");
        List<ChildProcess> hosts = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            hosts.add(rig.host("fleet-" + i, store(Duration.ofSeconds(10)), "shared", "threads=50", "await=" + go));
        }
        for (ChildProcess host : hosts) {
            host.awaitLine("READY"::equals);
            assertThat(Files.readString(Path.of("/proc", Long.toString(host.pid()), "cmdline")))
                    .as("a host's arguments").contains("FACTORY_STORE_URL").doesNotContain(TestPostgres.password());
        }
        // All four factories are built and connected: their 200 opens start together.
        Files.writeString(go, "");

        int created = 0;
        String creator = null;
        for (int i = 0; i < hosts.size(); i++) {
            List<String> lines = hosts.get(i).awaitSuccess();
            Matcher result = lines.stream().map(RESULT::matcher).filter(Matcher::matches).findFirst()
                    .orElseThrow(() -> new AssertionError("no RESULT line: " + lines));
            assertThat(result.group(2)).as("failed opens on fleet-%d, the first: %s", i + 1,
                    lines.stream().filter(l -> l.startsWith("FAILED")).limit(3).toList()).isEqualTo("0");
            assertThat(result.group(3)).as("sandbox instances on fleet-%d", i + 1).isEqualTo("1");
            if (result.group(4).equals("1")) {
                created++;
                creator = "fleet-" + (i + 1);
            }
        }
        assertThat(created).as("hosts that created the sandbox").isEqualTo(1);
        assertThat(rig.sessionDirectories()).as("sandboxes on the shared provider").containsExactly("shared");
        assertThat(rig.setupLog()).as("the setup ran once, on the host that created the sandbox")
                .containsExactly("start " + creator + " shared", "done " + creator + " shared");
        assertThat(rig.marker("shared")).exists();
        try (SandboxFactory reader = rig.factory("survivor", store(Duration.ofSeconds(10)), new RecordingListener())) {
            assertThat(record(reader, "shared").materializedAt()).isPresent();
        }
    }

    @Test
    void whenTheLeaseHolderIsKilledMidSetupAnotherHostTakesOverAfterExpiryAndTheSetupCompletesOnce() throws Exception {
        rig.block("host-a");
        ChildProcess a = rig.host("host-a", store(SHORT_LEASE), "crashy");
        long setupShell = rig.awaitParked("host-a", a);
        assertThat(FleetRig.leaseRow(TestPostgres.url(), schema, "crashy")).isEqualTo("1 host-a");

        a.kill();
        // The machine went down with the command it was running: commands die with their host.
        FleetRig.awaitGone(setupShell);

        RecordingListener listener = new RecordingListener();
        try (SandboxFactory survivor = rig.factory("survivor", store(Duration.ofSeconds(10)), listener)) {
            assertThat(record(survivor, "crashy").materializedAt()).as("nothing recorded of the interrupted start").isEmpty();
            assertThat(rig.marker("crashy")).as("no marker for a setup that did not finish").doesNotExist();

            SessionHandle handle = survivor.openSession(rig.spec("crashy"));

            assertThat(listener.phases()).as("the lease of a host that cannot be proven dead is waited out")
                    .contains(SessionPhase.WAITING_FOR_LEASE, SessionPhase.SETUP);
            assertThat(handle.sandbox().lastStartOutcome()).as("the sandbox host-a created").contains(StartOutcome.CONNECTED);
            assertThat(FleetRig.leaseRow(TestPostgres.url(), schema, "crashy")).as("one takeover, then released").isEqualTo("2 free");
            assertThat(rig.setupLog()).as("the interrupted setup ran once more, to its end")
                    .containsExactly("start host-a crashy", "start survivor crashy", "done survivor crashy");
            assertThat(rig.marker("crashy")).exists();
            assertThat(record(survivor, "crashy").materializedAt()).isPresent();
            assertThat(rig.sessionDirectories()).containsExactly("crashy");
        }
    }

    @Test
    void aPausedOwnerThatComesBackAfterItsLeaseExpiredHasItsLateWritesRefused() throws Exception {
        rig.block("host-a");
        ChildProcess a = rig.host("host-a", store(SHORT_LEASE), "paused");
        long setupShell = rig.awaitParked("host-a", a);
        FleetRig.signal(a.pid(), "STOP");
        FleetRig.awaitState(a.pid(), 'T');

        RecordingListener listener = new RecordingListener();
        try (SandboxFactory survivor = rig.factory("survivor", store(Duration.ofSeconds(10)), listener)) {
            survivor.openSession(rig.spec("paused"));
            assertThat(listener.phases()).contains(SessionPhase.WAITING_FOR_LEASE, SessionPhase.SETUP);
            SessionRecord taken = record(survivor, "paused");
            assertThat(taken.materializedAt()).isPresent();
            assertThat(FleetRig.leaseRow(TestPostgres.url(), schema, "paused")).isEqualTo("2 free");

            // host-a's setup finishes while its JVM is stopped; then the JVM goes on, its lease long gone.
            rig.unblock("host-a");
            FleetRig.awaitGone(setupShell);
            FleetRig.signal(a.pid(), "CONT");
            List<String> lines = a.awaitSuccess();

            assertThat(lines).as("host-a's open").anySatisfy(line -> assertThat(line)
                    .startsWith("FAILED FencedOutException LEASE_LOST: Session 'paused': ")
                    .contains("under lease token 1 was refused, because the lease was taken since with token 2"));
            assertThat(lines).contains("RESULT opens=1 failed=1 instances=0 created=0");
            SessionRecord after = record(survivor, "paused");
            assertThat(after.materializedAt()).as("the new owner's start stands").isEqualTo(taken.materializedAt());
            assertThat(after.sandboxId()).isEqualTo(taken.sandboxId());
            assertThat(after.workdir()).isEqualTo(taken.workdir());
            assertThat(FleetRig.leaseRow(TestPostgres.url(), schema, "paused")).as("host-a took nothing back").isEqualTo("2 free");
            assertThat(rig.setupLog()).containsExactly("start host-a paused", "start survivor paused", "done survivor paused",
                    "done host-a paused");

            listener.clear();
            survivor.openSession(rig.spec("paused"));
            assertThat(listener.phases()).as("the setup the new owner recorded counts").doesNotContain(SessionPhase.SETUP);
        }
    }
}
