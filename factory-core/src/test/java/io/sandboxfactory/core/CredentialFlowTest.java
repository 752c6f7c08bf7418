package io.sandboxfactory.core;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.host.RepositoryAccess;
import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.config.RepositoryDefaults;
import io.sandboxfactory.core.session.MaterializeException;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.testing.CapturedLogs;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.core.testing.GitHttpServer;
import io.sandboxfactory.core.testing.ProcessSnapshots;
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
 * The token's whole path with {@code repository.exposeToken: true} (the sandbox gets the token, as
 * {@code GH_TOKEN}) against a real authenticated remote (git http-backend behind HTTP Basic auth on
 * loopback): it reaches git, and nothing else — not the session directory, not the store, not logs,
 * not argv, not URLs. The default, where the token stays in the factory's Git gateway, is {@code
 * GitGatewayTest}'s.
 */
class CredentialFlowTest {

    /** The token given to the sandbox. */
    private static final FactoryConfig EXPOSED = FactoryConfig.builder().repository(new RepositoryDefaults(null, java.util.Optional.empty(),
            List.of(), List.of(), List.of(), List.of(), List.of(), true, java.util.Optional.empty())).build();

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
             SandboxFactory factory = SandboxFactory.builder().config(EXPOSED).provider("local")
                     .environment(Map.of("FACTORY_PROVIDERS_LOCAL_NETWORK", "host")).stateDirectory(state).sessionListener(listener).repositoryToken(minted::get).build()) {
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
             SandboxFactory factory = SandboxFactory.builder().provider("local").environment(Map.of("FACTORY_PROVIDERS_LOCAL_NETWORK", "host"))
                     .stateDirectory(tmp.resolve("state")).build()) {
            assertThatThrownBy(() -> factory.openSession(SessionSpec.builder("anon").repository(server.url("app.git")).branch("x").build()))
                    .isInstanceOfSatisfying(MaterializeException.class, e -> assertThat(e.errorCode()).isEqualTo(StandardErrorCode.CLONE_FAILED.toErrorCode()));
        }
    }

    /**
     * The whole lifecycle — open with a token (clone, a setup that fetches), commands that fetch and
     * push, a token refresh, failures, a teardown that prints the token, retire (stop, then destroy)
     * — while every process's command line is sampled from /proc and every git invocation records
     * its argv through a wrapper on PATH. The tokens appear in no file (session directory, state
     * directory, the SQLite database's raw bytes), no log record at any level, no exception (message,
     * causes, stack trace), no listener command or output, no command line and no request URI.
     */
    @Test
    void aFullLifecycleLeavesTheTokenInNoFileLogArgvExceptionOrOutput() throws Exception {
        Path projectRoot = tmp.resolve("served");
        Git.bareRepository(projectRoot.resolve("app.git"));
        String firstToken = "tok-life-" + UUID.randomUUID();
        String secondToken = "tok-next-" + UUID.randomUUID();
        String wrongToken = "tok-wrong-" + UUID.randomUUID();
        List<String> tokens = List.of(firstToken, secondToken, wrongToken);
        AtomicReference<String> minted = new AtomicReference<>(firstToken);
        RecordingListener listener = new RecordingListener();
        Path state = tmp.resolve("state");
        Path argvLog = tmp.resolve("git-argv.log");
        Path bin = gitWrapper(tmp.resolve("bin"), argvLog);
        FactoryConfig config = FactoryConfig.builder().repository(EXPOSED.repository())
                .providerSection("local", Map.of("env", Map.of("PATH", bin + ":" + System.getenv("PATH")))).build();
        List<Throwable> failures = new java.util.ArrayList<>();

        try (GitHttpServer server = new GitHttpServer(projectRoot, firstToken);
             CapturedLogs logs = new CapturedLogs();
             ProcessSnapshots processes = new ProcessSnapshots();
             SandboxFactory factory = SandboxFactory.builder().config(config).provider("local")
                     .environment(Map.of("FACTORY_PROVIDERS_LOCAL_NETWORK", "host", "FACTORY_PROVIDERS_LOCAL_VOLUMES", "[" + tmp + "]"))
                     .stateDirectory(state).sessionListener(listener).repositoryToken(minted::get).build()) {
            SessionSpec spec = SessionSpec.builder("life").repository(server.url("app.git")).branch("feature/life")
                    .setupCommands("git fetch origin && echo \"setup sees $GH_TOKEN\"")
                    .teardownCommands("echo \"teardown leaks $GH_TOKEN\" >&2; exit 9").build();

            SessionHandle handle = factory.openSession(spec);
            String checkout = handle.checkout().orElseThrow();
            CommandOptions inCheckout = CommandOptions.builder().cwd(checkout).build();
            assertThat(handle.executeCommand("git fetch origin", List.of(), inCheckout).exitCode()).isZero();
            handle.executeCommand("echo work > work.txt && git add work.txt && git -c user.name=t -c user.email=t@example.invalid"
                    + " commit -qm work", List.of(), inCheckout);
            CommandResult push = handle.executeCommand("git push -q origin HEAD", List.of(), inCheckout);
            assertThat(push.exitCode()).as(push.stderr()).isZero();

            server.acceptOnly(secondToken);
            factory.refreshToken("life", secondToken);
            minted.set(secondToken);
            assertThat(handle.executeCommand("git fetch origin", List.of(), inCheckout).exitCode()).isZero();

            // Failures whose messages carry command output: a setup that prints the token and fails, a clone with a wrong token.
            try {
                factory.openSession(SessionSpec.builder("leaky-setup").repository(server.url("app.git")).branch("x")
                        .setupCommands("echo \"setup leaks $GH_TOKEN\" >&2; echo \"out $GH_TOKEN\"; exit 7").build());
            } catch (RuntimeException e) {
                failures.add(e);
            }
            try {
                factory.openSession(SessionSpec.builder("wrong-token").repository(server.url("app.git")).branch("x")
                        .repositoryAccess(() -> new RepositoryAccess(server.url("app.git"),
                                java.util.Optional.of(RepositoryAccess.Authorization.bearer(wrongToken)))).build());
            } catch (RuntimeException e) {
                failures.add(e);
            }
            assertThat(failures).hasSize(2);

            factory.retire("life", RetireMode.STOP);
            Path sessionDir = state.resolve("sessions/life");
            assertThat(sessionDir).as("stop keeps the session directory").isDirectory();
            for (String token : tokens) {
                assertThat(filesContaining(sessionDir, token)).as("session directory files").isEmpty();
                assertThat(filesContaining(state, token)).as("state directory files, the SQLite database included").isEmpty();
            }
            factory.retire("life", RetireMode.DESTROY);
            factory.retire("leaky-setup", RetireMode.DESTROY);

            processes.close();
            assertThat(processes.sweeps()).as("passes over /proc").isPositive();
            assertThat(processes.commandLines()).as("the sampler saw git at work")
                    .anyMatch(line -> line.contains("git") && (line.contains("clone") || line.contains("fetch") || line.contains("remote-http")));
            List<String> argv = Files.readAllLines(argvLog);
            assertThat(argv).as("the wrapper recorded git invocations").anyMatch(line -> line.contains("clone"))
                    .anyMatch(line -> line.contains("push"));
            assertThat(logs.lines()).as("every level is captured").anyMatch(l -> l.startsWith("FINE"))
                    .anyMatch(l -> l.startsWith("WARNING") && l.contains("leaky-setup"))
                    .anyMatch(l -> l.startsWith("WARNING") && l.contains("The teardown of session 'life' failed"));
            assertThat(listener.outputs()).as("setup output was streamed").anyMatch(chunk -> chunk.contains("setup sees ****"));

            for (String token : tokens) {
                assertThat(filesContaining(state, token)).as("state directory files after destroy").isEmpty();
                assertThat(logs.lines()).as("log records").noneMatch(line -> line.contains(token));
                assertThat(failures).as("exceptions").allSatisfy(e -> assertThat(describe(e)).doesNotContain(token));
                assertThat(listener.commands()).as("command lines").noneMatch(line -> line.contains(token));
                assertThat(listener.outputs()).as("streamed output").noneMatch(chunk -> chunk.contains(token));
                assertThat(processes.commandLines()).as("process command lines").noneMatch(line -> line.contains(token));
                assertThat(argv).as("git argv").noneMatch(line -> line.contains(token));
                assertThat(server.requestUris()).as("request URIs").noneMatch(uri -> uri.contains(token));
            }
        }
    }

    /** A {@code git} on PATH that appends its arguments (one per line) to {@code log}, then runs the real git. */
    private static Path gitWrapper(Path bin, Path log) throws IOException, InterruptedException {
        Process which = new ProcessBuilder("sh", "-c", "command -v git").start();
        String realGit = new String(which.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
        assertThat(which.waitFor()).isZero();
        Files.createDirectories(bin);
        Path wrapper = bin.resolve("git");
        Files.writeString(wrapper, "#!/bin/sh\n"
                + "{ echo '--- git'; for a in \"$@\"; do printf '%s\\n' \"$a\"; done; } >> '" + log + "'\n"
                + "exec '" + realGit + "' \"$@\"\n");
        wrapper.toFile().setExecutable(true);
        return bin;
    }

    /** An exception as a log or a CLI with --verbose would show it: message, causes, suppressed, stack trace. */
    private static String describe(Throwable e) {
        java.io.StringWriter out = new java.io.StringWriter();
        e.printStackTrace(new java.io.PrintWriter(out));
        return e + "\n" + out;
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
