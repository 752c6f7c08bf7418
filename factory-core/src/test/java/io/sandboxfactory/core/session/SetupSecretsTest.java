package io.sandboxfactory.core.session;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.testing.CapturedLogs;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.core.testing.ProcessSnapshots;
import io.sandboxfactory.core.testing.RecordingListener;
import io.sandboxfactory.store.api.JournalEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Setup secrets on the real local provider (bubblewrap): the setup commands get the host variable,
 * no later command or process does, and the value is masked in the journal, the progress output,
 * logs and a failed setup's error, and appears in no argv and no file the factory writes.
 */
class SetupSecretsTest {

    /** Named like nothing secret, and of no token shape: only the setup-secret redaction can mask it. */
    private static final String NAME = "SETUP_VALUE_X";

    @TempDir
    Path tmp;

    private SandboxFactory factory(Map<String, String> environment, RecordingListener listener) {
        return SandboxFactory.builder().provider("local").environment(environment).stateDirectory(tmp.resolve("state"))
                .sessionListener(listener).build();
    }

    @Test
    void theSetupGetsTheValueAndNoLaterCommandOrProcessSeesIt() throws Exception {
        Path remote = Git.bareRepository(tmp.resolve("remote/app.git"));
        String secret = "plain-" + UUID.randomUUID();
        RecordingListener listener = new RecordingListener();
        try (ProcessSnapshots argv = new ProcessSnapshots(); CapturedLogs logs = new CapturedLogs();
             SandboxFactory factory = factory(Map.of(NAME, secret), listener)) {
            SessionSpec spec = SessionSpec.builder("sec-1").repository(remote.toString()).branch("work").setupSecrets(NAME)
                    .setupCommands("echo \"${" + NAME + ":+set}\" > ../setup-saw.txt", "echo \"setup prints $" + NAME + "\"").build();
            SessionHandle handle = factory.openSession(spec);
            String checkout = handle.checkout().orElseThrow();
            CommandOptions inCheckout = CommandOptions.builder().cwd(checkout).build();

            CommandResult saw = handle.sandbox().executeCommand("cat ../setup-saw.txt", List.of(), inCheckout);
            assertThat(saw.stdout().strip()).as("the setup had the variable").isEqualTo("set");
            CommandResult later = handle.sandbox().executeCommand("printenv " + NAME + "; echo \"exit=$?\"", List.of(), inCheckout);
            assertThat(later.stdout().strip()).as("a later command has no such variable").isEqualTo("exit=1");
            assertThat(handle.sandbox().getEnv()).as("the sandbox's env overlay").doesNotContainKey(NAME).doesNotContainValue(secret);

            // A long-running process of the session, started after the setup, lacks it in /proc/<pid>/environ.
            handle.sandbox().executeCommand("sleep 120 >/dev/null 2>&1 &", List.of(), inCheckout);
            CommandResult environ = handle.sandbox().executeCommand(
                    "for p in /proc/[0-9]*; do if grep -q '^sleep' $p/comm 2>/dev/null; then echo found; tr '\\0' '\\n' < $p/environ; fi; done",
                    List.of(), inCheckout);
            assertThat(environ.stdout()).contains("found").doesNotContain(secret).doesNotContain(NAME + "=");

            List<JournalEntry> setup = factory.sessionStore().journal("sec-1", 50).stream().filter(e -> e.origin().equals("setup")).toList();
            assertThat(setup).singleElement().satisfies(entry -> assertThat(entry.stdoutTail())
                    .contains("setup prints " + Redaction.MASK).doesNotContain(secret));
            assertThat(listener.outputs()).as("the setup's progress output").anyMatch(chunk -> chunk.contains("setup prints " + Redaction.MASK))
                    .noneMatch(chunk -> chunk.contains(secret));
            assertThat(listener.commands()).noneMatch(line -> line.contains(secret));
            assertThat(logs.lines()).noneMatch(line -> line.contains(secret));
            assertThat(argv.commandLines()).as("argv of every process").noneMatch(line -> line.contains(secret));
            assertThat(filesContaining(tmp.resolve("state"), secret)).as("files the factory wrote").isEmpty();
        }
    }

    @Test
    void theNamesAreKeptSoASetupRunAgainByAnotherInstanceGetsTheValueAndNoLaterCommandDoes() throws Exception {
        Path remote = Git.bareRepository(tmp.resolve("remote/app.git"));
        String secret = "plain-" + UUID.randomUUID();
        SessionSpec spec = SessionSpec.builder("sec-7").repository(remote.toString()).branch("work").setupSecrets(NAME)
                .setupCommands("if [ -n \"$" + NAME + "\" ]; then echo set; else echo unset; fi >> ../setup-saw.txt").build();
        Path checkout;
        try (SandboxFactory first = factory(Map.of(NAME, secret), new RecordingListener())) {
            checkout = Path.of(first.openSession(spec).checkout().orElseThrow());
            assertThat(first.sessionStore().find("sec-7").orElseThrow().definition().setupSecrets()).contains(List.of(NAME));
        }
        assertThat(checkout.resolve(".git")).as("the checkout, on this host").exists();
        // The sandbox lost its checkout: the next start clones and runs the setup again.
        MaterializeAndSetupTest.deleteTree(checkout);

        // Another instance, with no setup secrets configured, reaches the session from the store (as `factory exec` in another shell).
        try (SandboxFactory second = factory(Map.of(NAME, secret), new RecordingListener())) {
            SessionHandle resumed = second.openSession(SessionSpec.resume(second.sessionStore().find("sec-7").orElseThrow().definition())
                    .build()).awaitStarted();
            CommandOptions inCheckout = CommandOptions.builder().cwd(resumed.checkout().orElseThrow()).build();
            assertThat(resumed.executeCommand("cat ../setup-saw.txt", List.of(), inCheckout).stdout())
                    .as("both setups had the variable").isEqualTo("set\nset\n");
            assertThat(resumed.executeCommand("printenv " + NAME + "; echo \"exit=$?\"", List.of(), inCheckout).stdout().strip())
                    .as("a later command has no such variable").isEqualTo("exit=1");
            assertThat(second.sessionStore().find("sec-7").orElseThrow().definition().setupSecrets())
                    .as("the names, never the value").contains(List.of(NAME));
        }
        assertThat(filesContaining(tmp.resolve("state"), secret)).as("files the factory wrote, the store's among them").isEmpty();
    }

    @Test
    void aFailedSetupThatPrintsTheValueShowsItMasked() throws Exception {
        Path remote = Git.bareRepository(tmp.resolve("remote/app.git"));
        String secret = "plain-" + UUID.randomUUID();
        try (SandboxFactory factory = factory(Map.of(NAME, secret), new RecordingListener())) {
            SessionSpec spec = SessionSpec.builder("sec-2").repository(remote.toString()).branch("work").setupSecrets(NAME)
                    .setupCommands("echo \"cannot log in with $" + NAME + "\" >&2; exit 4").build();
            SetupCommandException failure = catchThrowableOfType(SetupCommandException.class, () -> factory.openSession(spec));
            assertThat(failure.getMessage()).contains("cannot log in with " + Redaction.MASK).doesNotContain(secret);
        }
    }

    /** A clone's failure quotes git's output, which names the repository: the caller sees the session's secrets and token shapes masked. */
    @Test
    void aFailedClonesMessageShowsTheSessionsSecretsMasked() throws Exception {
        String secret = "plain-" + UUID.randomUUID();
        String shaped = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
        Path missing = tmp.resolve(secret).resolve(shaped).resolve("app.git");
        try (SandboxFactory factory = factory(Map.of(NAME, secret), new RecordingListener())) {
            SessionSpec spec = SessionSpec.builder("sec-6").repository(missing.toString()).branch("work").setupSecrets(NAME).build();
            MaterializeException failure = catchThrowableOfType(MaterializeException.class, () -> factory.openSession(spec));
            assertThat(failure.errorCode()).isEqualTo(StandardErrorCode.CLONE_FAILED.toErrorCode());
            assertThat(failure.getMessage()).contains(Redaction.MASK).doesNotContain(secret).doesNotContain(shaped);
        }
    }

    @Test
    void anUnsetVariableFailsTheOpenNamingItBeforeAnythingIsCreated() throws Exception {
        Path remote = Git.bareRepository(tmp.resolve("remote/app.git"));
        try (SandboxFactory factory = factory(Map.of(), new RecordingListener())) {
            SessionSpec spec = SessionSpec.builder("sec-3").repository(remote.toString()).branch("work").setupSecrets("NPM_TOKEN_X")
                    .setupCommands("true").build();
            assertThatThrownBy(() -> factory.openSession(spec)).isInstanceOfSatisfying(InvalidInputException.class,
                    e -> assertThat(e.errorCode()).isEqualTo(StandardErrorCode.INVALID_CONFIG.toErrorCode()))
                    .hasMessage("Setup secret NPM_TOKEN_X is not set in the factory's environment; set it, or remove it from setupSecrets.");
            assertThat(factory.sessionStore().find("sec-3")).isEmpty();
            assertThat(factory.heldSessions()).isEmpty();
        }
    }

    @Test
    void anInvalidNameIsInvalidConfigNamingTheValue() throws Exception {
        assertThatThrownBy(() -> SessionSpec.builder("sec-4").repository("o/r").branch("work").setupSecrets("NPM-TOKEN").build())
                .isInstanceOfSatisfying(InvalidInputException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(StandardErrorCode.INVALID_CONFIG.toErrorCode()))
                .hasMessageContaining("'NPM-TOKEN'");
        Path config = Files.writeString(tmp.resolve("factory.yaml"), "repository:\n  setupSecrets: [GOOD, 1BAD]\n");
        assertThatThrownBy(() -> SandboxFactory.builder().provider("local").config(config).stateDirectory(tmp.resolve("state")).build())
                .isInstanceOfSatisfying(SandboxException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(StandardErrorCode.INVALID_CONFIG.toErrorCode()))
                .hasMessageContaining("setupSecrets").hasMessageContaining("'1BAD'");
        assertThat(tmp.resolve("state")).doesNotExist();
    }

    @Test
    void configuredNamesApplyToSessionsThatNameNone() throws Exception {
        Path remote = Git.bareRepository(tmp.resolve("remote/app.git"));
        String secret = "plain-" + UUID.randomUUID();
        Path config = Files.writeString(tmp.resolve("factory.yaml"), "repository:\n  setupSecrets: [" + NAME + "]\n");
        try (SandboxFactory factory = SandboxFactory.builder().provider("local").config(config).environment(Map.of(NAME, secret))
                .stateDirectory(tmp.resolve("state")).build()) {
            SessionHandle handle = factory.openSession(SessionSpec.builder("sec-5").repository(remote.toString()).branch("work")
                    .setupCommands("echo \"${" + NAME + ":+set}\" > ../setup-saw.txt").build());
            CommandResult saw = handle.sandbox().executeCommand("cat ../setup-saw.txt", List.of(),
                    CommandOptions.builder().cwd(handle.checkout().orElseThrow()).build());
            assertThat(saw.stdout().strip()).isEqualTo("set");
        }
    }

    private static List<Path> filesContaining(Path root, String text) throws IOException {
        byte[] needle = text.getBytes(StandardCharsets.UTF_8);
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile).filter(file -> {
                try {
                    return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1)
                            .contains(new String(needle, StandardCharsets.ISO_8859_1));
                } catch (IOException e) {
                    return false;
                }
            }).toList();
        }
    }
}
