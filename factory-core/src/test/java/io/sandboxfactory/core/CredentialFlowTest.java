package io.sandboxfactory.core;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.core.git.MaterializeException;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.testing.CapturedLogs;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.core.testing.GitHttpServer;
import io.sandboxfactory.core.testing.RecordingListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The token's whole path against a real authenticated remote (git http-backend behind HTTP Basic
 * auth on loopback): it reaches git, and nothing else — not the session directory, not the store,
 * not logs, not argv, not URLs.
 */
class CredentialFlowTest {

    @TempDir
    Path tmp;

    @Test
    void theTokenAuthenticatesGitAndLeavesNoTraceAndARefreshedTokenIsUsedByTheNextFetch() throws Exception {
        Path projectRoot = tmp.resolve("served");
        Git.bareRepository(projectRoot.resolve("app.git"));
        String firstToken = "tok-first-" + UUID.randomUUID();
        String secondToken = "tok-second-" + UUID.randomUUID();
        AtomicReference<String> minted = new AtomicReference<>(firstToken);
        RecordingListener listener = new RecordingListener();
        Path state = tmp.resolve("state");

        try (GitHttpServer server = new GitHttpServer(projectRoot, firstToken);
             CapturedLogs logs = new CapturedLogs();
             SandboxFactory factory = SandboxFactory.builder().provider("local").environment(Map.of()).stateDirectory(state)
                     .sessionListener(listener).repositoryToken(minted::get).build()) {
            SessionSpec spec = SessionSpec.builder("auth-1").repository(server.url("app.git")).branch("feature/auth")
                    .setupCommands("test -n \"$GH_TOKEN\" && echo setup-saw-a-token").build();

            SessionHandle handle = factory.openSession(spec);
            MastraSandbox<?> sandbox = handle.sandbox();
            assertThat(server.unauthorizedRequests()).as("the remote demanded credentials").isPositive();
            assertThat(server.authorizedRequests()).isPositive();
            String checkout = handle.checkout().orElseThrow();
            assertThat(Git.run(Path.of(checkout), "symbolic-ref", "--short", "HEAD")).isEqualTo("feature/auth");

            // The session's own git commands authenticate through the environment overlay.
            CommandResult fetch = sandbox.executeCommand("git fetch origin", List.of(), CommandOptions.builder().cwd(checkout).build());
            assertThat(fetch.exitCode()).as(fetch.stderr()).isZero();

            // Rotation: the remote now accepts only the second token.
            server.acceptOnly(secondToken);
            CommandResult stale = sandbox.executeCommand("git fetch origin", List.of(), CommandOptions.builder().cwd(checkout).build());
            assertThat(stale.exitCode()).isNotZero();
            factory.refreshToken("auth-1", secondToken);
            CommandResult fresh = sandbox.executeCommand("git fetch origin", List.of(), CommandOptions.builder().cwd(checkout).build());
            assertThat(fresh.exitCode()).as(fresh.stderr()).isZero();

            // A restart mints again: the hook's own fetch uses the source's current token.
            minted.set(secondToken);
            factory.retire("auth-1", RetireMode.STOP);
            factory.openSession(spec);
            factory.retire("auth-1", RetireMode.STOP);

            assertThat(logs.lines()).as("debug logging is captured").anyMatch(l -> l.startsWith("FINE") && l.contains(" runs: "));
            for (String token : List.of(firstToken, secondToken)) {
                assertThat(filesContaining(state, token)).as("files holding the token under the state directory").isEmpty();
                assertThat(logs.lines()).as("log lines").noneMatch(line -> line.contains(token));
                assertThat(listener.commands()).as("command lines sent to the sandbox").noneMatch(line -> line.contains(token));
                assertThat(server.requestUris()).noneMatch(uri -> uri.contains(token));
            }
            assertThat(Files.readString(Path.of(checkout, ".git/config"))).doesNotContain("credential").doesNotContain("tok-");
            assertThat(listener.commands()).anyMatch(line -> line.contains(" clone ") && line.contains("password=${GH_TOKEN}"));
        }
    }

    @Test
    void withoutTheTokenTheCloneFailsWithoutRetriesOrPrompts() throws Exception {
        Path projectRoot = tmp.resolve("served");
        Git.bareRepository(projectRoot.resolve("app.git"));
        try (GitHttpServer server = new GitHttpServer(projectRoot, "tok-" + UUID.randomUUID());
             SandboxFactory factory = SandboxFactory.builder().provider("local").environment(Map.of())
                     .stateDirectory(tmp.resolve("state")).build()) {
            assertThatThrownBy(() -> factory.openSession(SessionSpec.builder("anon").repository(server.url("app.git")).branch("x").build()))
                    .isInstanceOfSatisfying(MaterializeException.class, e -> assertThat(e.code()).isEqualTo(MaterializeException.CLONE_FAILED));
        }
    }

    private static List<Path> filesContaining(Path root, String token) throws IOException {
        byte[] needle = token.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile).filter(file -> {
                try {
                    return indexOf(Files.readAllBytes(file), needle) >= 0;
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).toList();
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
