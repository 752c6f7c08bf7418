package io.sandboxfactory.core.session;

import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.SandboxStatus;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.testing.CapturedLogs;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.core.testing.SessionHarness;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.logging.Level;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class SetupFailureTest {

    private static final String SUFFIX = ". The sandbox stays usable: this setup command is skipped for the rest of the session"
            + " — retry your command, then fix the setup command or run it manually.";

    @TempDir
    Path tmp;
    Path remote;
    Path state;
    Path log;

    @BeforeEach
    void fixtures() throws IOException {
        remote = Git.bareRepository(tmp.resolve("remote/app.git"));
        state = tmp.resolve("state");
        log = tmp.resolve("events.log");
    }

    private SessionSpec spec(String setup) {
        return SessionSpec.builder("s1").repository(remote.toString()).branch("work").setupCommands(setup)
                .teardownCommands("echo teardown-in-$(basename \"$PWD\") >> '" + log + "'").build();
    }

    private List<String> events() throws IOException {
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    @Test
    void aFailingSetupTearsDownThrowsTheExactMessageAndIsSkippedWithAWarningAfterwards() throws Exception {
        String failing = "echo setup-ran >> '" + log + "'; echo some output; echo 'boom: missing tool' >&2; exit 3";
        try (SessionHarness factory = new SessionHarness(state); CapturedLogs logs = new CapturedLogs()) {
            SetupCommandException failure = catchThrowableOfType(SetupCommandException.class, () -> factory.open(spec(failing)));
            assertThat(failure).hasMessage("Setup command failed (exit 3): boom: missing tool" + SUFFIX);
            assertThat(failure.exitCode()).isEqualTo(3);
            assertThat(events()).containsExactly("setup-ran", "teardown-in-app");
            assertThat(factory.store.failedSetupCommands("s1")).containsExactly(failing);

            // The next start (a plain command) skips the failed setup with a warning; the sandbox runs commands.
            SessionHandle handle = factory.opener.session("s1").orElseThrow();
            assertThat(handle.sandbox().status()).isEqualTo(SandboxStatus.ERROR);
            CommandResult result = handle.sandbox().executeCommand("git rev-parse --abbrev-ref HEAD && echo still-usable",
                    List.of(), io.sandboxfactory.api.CommandOptions.builder().cwd("app").build());
            assertThat(result.stdout()).contains("work").contains("still-usable");
            assertThat(events()).containsExactly("setup-ran", "teardown-in-app");
            assertThat(logs.contains(Level.WARNING, "Skipping the setup of session 's1'")).isTrue();
            assertThat(handle.sandbox().status()).isEqualTo(SandboxStatus.RUNNING);
        }

        // Another process (new factory, same store) still skips it: the record lives in the store.
        try (SessionHarness factory = new SessionHarness(state)) {
            factory.open(spec(failing));
            assertThat(events()).containsExactly("setup-ran", "teardown-in-app");
        }

        // An edited command runs fresh.
        try (SessionHarness factory = new SessionHarness(state)) {
            factory.open(spec("echo fixed-setup >> '" + log + "'"));
            assertThat(events()).containsExactly("setup-ran", "teardown-in-app", "fixed-setup");
        }

        // Retiring evicts the session, which forgets its failed commands: a reopened session retries them.
        try (SessionHarness factory = new SessionHarness(state)) {
            factory.store.recordFailedSetupCommand("s1", "stale");
            factory.retire("s1", io.sandboxfactory.core.retire.RetireMode.STOP);
            assertThat(factory.store.failedSetupCommands("s1")).isEmpty();
        }
    }

    @Test
    void theMessageKeepsTheLast1800CharactersOfStderrOrElseStdout() throws Exception {
        try (SessionHarness factory = new SessionHarness(state)) {
            String longStderr = "i=0; while [ $i -lt 500 ]; do printf 'line%04d-' $i >&2; i=$((i+1)); done; exit 7";
            SetupCommandException failure = catchThrowableOfType(SetupCommandException.class, () -> factory.open(spec(longStderr)));
            StringBuilder all = new StringBuilder();
            for (int i = 0; i < 500; i++) {
                all.append(String.format("line%04d-", i));
            }
            String tail = all.substring(all.length() - 1800);
            assertThat(failure).hasMessage("Setup command failed (exit 7): " + tail + SUFFIX);
        }
        try (SessionHarness factory = new SessionHarness(tmp.resolve("state2"))) {
            SetupCommandException failure = catchThrowableOfType(SetupCommandException.class,
                    () -> factory.open(spec("echo only-on-stdout; false")));
            assertThat(failure).hasMessage("Setup command failed (exit 1): only-on-stdout" + SUFFIX);
        }
    }

    @Test
    void anInfrastructureFailureIsNotRecordedAndRetriesInFullOnTheNextStart() throws Exception {
        Path missing = tmp.resolve("remote/not-yet.git");
        SessionSpec spec = SessionSpec.builder("s2").repository(missing.toUri().toString()).branch("work")
                .setupCommands("echo setup-ran >> '" + log + "'").build();
        try (SessionHarness factory = new SessionHarness(state)) {
            assertThatThrownBy(() -> factory.open(spec))
                    .isInstanceOfSatisfying(MaterializeException.class, e -> assertThat(e.errorCode()).isEqualTo(StandardErrorCode.CLONE_FAILED.toErrorCode()))
                    .hasMessageContaining("Cloning " + missing.toUri());
            assertThat(factory.store.failedSetupCommands("s2")).isEmpty();
            assertThat(events()).isEmpty();

            Git.bareRepository(missing);
            CommandResult result = factory.opener.session("s2").orElseThrow().sandbox().executeCommand("cat README.md",
                    List.of(), io.sandboxfactory.api.CommandOptions.builder().cwd("not-yet").build());
            assertThat(result.stdout()).contains("# fixture");
            assertThat(events()).containsExactly("setup-ran");
        }
    }
}
