package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.CommandExecutor;
import io.sandboxfactory.api.error.ErrorCode;
import io.sandboxfactory.api.error.ErrorKind;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.SandboxExecTransportException;
import io.sandboxfactory.api.SandboxStartHookException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.testing.TestProviderContext;
import io.sandboxfactory.provider.local.LocalProviderConfig;
import io.sandboxfactory.provider.local.LocalSandboxProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The replay predicates: which failures prove a command never ran, and the directory probe against a real local sandbox. */
class DeadSandboxesTest {

    @TempDir
    Path tmp;

    private static final SandboxDestroyedException DESTROYED = new SandboxDestroyedException("gone");
    private static final SandboxExecTransportException NOT_OPENED = new SandboxExecTransportException("no exec", false, null);
    private static final SandboxExecTransportException OPENED = new SandboxExecTransportException("lost", true, null);
    private static final SandboxException CWD_MISSING = new SandboxException(StandardErrorCode.CWD_MISSING, "Working directory /x does not exist.");

    @Test
    void onlyFailuresThatProveTheCommandNeverStartedAreDeadSandboxErrors() {
        assertThat(DeadSandboxes.isDeadSandboxError(DESTROYED)).isTrue();
        assertThat(DeadSandboxes.isDeadSandboxError(NOT_OPENED)).isTrue();
        assertThat(DeadSandboxes.isDeadSandboxError(new SandboxStartHookException("s", DESTROYED))).isTrue();
        assertThat(DeadSandboxes.isDeadSandboxError(new SandboxStartHookException("s", NOT_OPENED))).isTrue();

        assertThat(DeadSandboxes.isDeadSandboxError(OPENED)).isFalse();
        assertThat(DeadSandboxes.isDeadSandboxError(new SandboxExecTransportException("lost", true, DESTROYED)))
                .as("a command that was opened may have run, whatever caused the loss").isFalse();
        assertThat(DeadSandboxes.isDeadSandboxError(new SandboxStartHookException("s", OPENED))).isFalse();
        assertThat(DeadSandboxes.isDeadSandboxError(new SandboxException(StandardErrorCode.SANDBOX_ERROR, "wrapped", DESTROYED)))
                .as("causes further down say nothing about this command").isFalse();
        assertThat(DeadSandboxes.isDeadSandboxError(CWD_MISSING)).isFalse();
        assertThat(DeadSandboxes.isDeadSandboxError(new SandboxException(StandardErrorCode.TIMEOUT, "slow"))).isFalse();
        assertThat(DeadSandboxes.isDeadSandboxError(new IllegalStateException("no such file or directory"))).isFalse();
        assertThat(DeadSandboxes.isDeadSandboxError(null)).isFalse();
    }

    @Test
    void aMissingWorkdirIsToldApartByProbingTheDirectoryNotByTheErrorText() throws Exception {
        MastraSandbox<?> sandbox = new LocalSandboxProvider()
                .open(LocalProviderConfig.withRoot(tmp.resolve("sessions").toString()), new TestProviderContext(tmp, "test"))
                .create(FactorySandboxContext.of("probe"));
        sandbox.start();
        Path checkout = Files.createDirectories(tmp.resolve("sessions/probe/app"));
        AtomicInteger probes = new AtomicInteger();
        CommandExecutor counted = (command, args, options) -> {
            probes.incrementAndGet();
            return sandbox.executeCommand(command, args, options);
        };

        assertThat(DeadSandboxes.isMissingWorkdirError(CWD_MISSING, counted, checkout.toString())).as("directory is there").isFalse();
        assertThat(DeadSandboxes.isMissingWorkdirError(NOT_OPENED, counted, checkout.toString())).isFalse();
        assertThat(probes).hasValue(2);

        Files.delete(checkout);
        assertThat(DeadSandboxes.isMissingWorkdirError(CWD_MISSING, counted, checkout.toString())).isTrue();
        assertThat(DeadSandboxes.isMissingWorkdirError(NOT_OPENED, counted, checkout.toString())).isTrue();
        assertThat(probes).hasValue(4);

        // Failures that do not prove the command never started are not probed at all.
        assertThat(DeadSandboxes.isMissingWorkdirError(OPENED, counted, checkout.toString())).isFalse();
        assertThat(DeadSandboxes.isMissingWorkdirError(new SandboxException(StandardErrorCode.TIMEOUT, "slow"), counted, checkout.toString())).isFalse();
        assertThat(DeadSandboxes.isMissingWorkdirError(new IllegalStateException("No such file or directory"), counted,
                checkout.toString())).isFalse();
        assertThat(DeadSandboxes.isMissingWorkdirError(new SandboxException(new ErrorCode("CWD_MISSING_NOT", ErrorKind.SANDBOX, "A test code."), "x"), counted, checkout.toString())).isFalse();
        // A destroyed sandbox needs no probe: its directories are gone with it.
        assertThat(DeadSandboxes.isMissingWorkdirError(DESTROYED, counted, checkout.toString())).isTrue();
        assertThat(probes).hasValue(4);

        // The session directory itself removed: the probe finds the sandbox dead.
        Files.walk(tmp.resolve("sessions/probe")).sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        assertThat(DeadSandboxes.isMissingWorkdirError(CWD_MISSING, counted, tmp.resolve("sessions/probe").toString())).isTrue();
        assertThat(probes).hasValue(5);
        assertThat(DeadSandboxes.isDestroyed(DESTROYED)).isTrue();
        assertThat(DeadSandboxes.isDestroyed(NOT_OPENED)).isFalse();
    }
}
