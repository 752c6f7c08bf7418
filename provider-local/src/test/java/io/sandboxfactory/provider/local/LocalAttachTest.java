package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.capability.AttachableSandbox;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.api.support.Sandboxes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The local provider's interactive attach: the caller's shell in the directory, with the
 * environment the session's commands get, on the host without isolation and inside the boundary
 * with it; each attach is also run, with its commands on a pipe as {@code factory shell} does
 * without a terminal.
 */
class LocalAttachTest {

    @TempDir
    Path temp;

    private LocalProviderConfig config(String isolation) {
        return new LocalProviderConfig(temp.resolve("sessions").toString(), null, null, Map.of("FROM_CONFIG", "config-value"),
                isolation, null, null);
    }

    @Test
    void withoutIsolationTheCallersShellRunsOnTheHostInTheDirectoryWithTheSessionsEnvironment() throws Exception {
        try (TestBed bed = new TestBed(temp, config(LocalProviderConfig.NONE))) {
            assertThat(bed.factory().capabilities()).contains(SandboxCapability.ATTACH);
            LocalSandbox sandbox = bed.sandbox("plain");
            String directory = subdirectory(sandbox);
            sandbox.setEnv(env -> {
                env.put("SESSION_TOKEN", "secret-value");
                return env;
            });

            AttachableSandbox.Attach attach = sandbox.attach(new AttachableSandbox.Request(directory, false,
                    Map.of("SHELL", "/bin/bash", "CALLER_ONLY", "x")));

            assertThat(attach.command()).containsExactly("/bin/sh", "-c", "cd -- \"$0\" && exec \"$1\"", directory, "/bin/bash");
            assertThat(attach.hostDirectory()).contains(Path.of(directory));
            assertThat(attach.environment()).containsEntry("SESSION_TOKEN", "secret-value").containsEntry("FROM_CONFIG", "config-value")
                    .doesNotContainKeys("CALLER_ONLY", "PWD", "SHLVL", "_");
            assertThat(String.join(" ", attach.command())).doesNotContain("secret-value");
            assertThat(run(attach, "echo \"${BASH_VERSION:+bash}\"; pwd; echo \"$SESSION_TOKEN\"; exit 7"))
                    .isEqualTo(new Ran(7, "bash\n" + directory + "\nsecret-value\n"));
        }
    }

    @Test
    void onATerminalTheShellGetsATerminalOfItsOwnFromScriptAndWithoutAShellVariableItIsSh() {
        try (TestBed bed = new TestBed(temp, config(LocalProviderConfig.NONE))) {
            LocalSandbox sandbox = bed.sandbox("tty");
            String directory = sandbox.directory().toString();

            AttachableSandbox.Attach attach = sandbox.attach(new AttachableSandbox.Request(directory, true, Map.of()));

            assertThat(attach.command()).containsExactly("script", "-qec", Stream.of("/bin/sh", "-c", "cd -- \"$0\" && exec \"$1\"",
                    directory, "sh").map(Sandboxes::quote).collect(Collectors.joining(" ")), "/dev/null");
        }
    }

    @Test
    void withIsolationTheShellRunsInsideTheSessionsBoundary() throws Exception {
        assumeTrue(Bubblewrap.works(Bubblewrap.DEFAULT_PROGRAM) || "true".equals(System.getenv("CI")),
                "bubblewrap does not work here (apt-get install bubblewrap)");
        Path hostFile = Files.writeString(temp.resolve("host-secret.txt"), "host secret\n");
        try (TestBed bed = new TestBed(temp, config(LocalProviderConfig.NAMESPACES))) {
            LocalSandbox sandbox = bed.sandbox("confined");
            String directory = subdirectory(sandbox);

            AttachableSandbox.Attach attach = sandbox.attach(new AttachableSandbox.Request(directory, false, Map.of()));

            assertThat(attach.command().get(0)).isEqualTo(Bubblewrap.DEFAULT_PROGRAM);
            assertThat(attach.command().subList(attach.command().size() - 5, attach.command().size()))
                    .containsExactly("/bin/sh", "-c", "cd -- \"$0\" && exec \"$1\"", directory, "sh");
            assertThat(attach.environment()).containsEntry("HOME", SessionPrivate.of(sandbox.directory()).home().toString());
            assertThat(run(attach, "hostname; pwd; cat '" + hostFile + "' 2>/dev/null || echo host-file-hidden\n"))
                    .isEqualTo(new Ran(0, "sandbox\n" + directory + "\nhost-file-hidden\n"));
        }
    }

    @Test
    void anEnvironmentThatCannotBeReadFailsTheAttach() {
        CommandResult failed = new CommandResult(127, "", "env: not found", Duration.ZERO, false, false, false, "env -0");

        assertThatThrownBy(() -> LocalShell.environment(failed, "s1"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Could not read the environment of session 's1': exit 127.");
    }

    private static String subdirectory(LocalSandbox sandbox) {
        TestBed.run(sandbox, "mkdir -p app/sub");
        return sandbox.directory().resolve("app/sub").toString();
    }

    record Ran(int exitCode, String stdout) {
    }

    /** Runs the attach as {@code factory shell} does without a terminal: its commands on stdin. */
    private static Ran run(AttachableSandbox.Attach attach, String input) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(attach.command()).redirectError(ProcessBuilder.Redirect.INHERIT);
        attach.hostDirectory().ifPresent(directory -> builder.directory(directory.toFile()));
        builder.environment().clear();
        builder.environment().putAll(attach.environment());
        Process process = builder.start();
        try (OutputStream stdin = process.getOutputStream()) {
            stdin.write(input.getBytes(StandardCharsets.UTF_8));
        }
        String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Ran(process.exitValue(), stdout);
    }
}
