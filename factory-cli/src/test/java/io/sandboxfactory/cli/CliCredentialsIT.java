package io.sandboxfactory.cli;

import io.sandboxfactory.core.testing.GitHttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CLI against a private remote: a real git http-backend on loopback behind HTTP Basic auth.
 * The token comes from {@code $GH_TOKEN} (or {@code $GITHUB_TOKEN}) and stays in the factory: the
 * session (in its own network namespace, no route to the remote) clones and fetches through the Git
 * gateway of the CLI process or the daemon; the token never reaches the session's commands, the
 * output, the checkout's git config or the state directory (the daemon's log included); with the
 * factory daemon off and on.
 */
@ParameterizedClass(name = "daemon {0}")
@EnumSource(DaemonMode.class)
class CliCredentialsIT {

    @Parameter
    DaemonMode mode;

    @TempDir
    Path temp;

    Path served;
    String token;

    @BeforeEach
    void remote() throws Exception {
        served = temp.resolve("served");
        Files.createDirectories(served);
        GitRepos.bareWithMain(served, "private");
        token = "ghp_cli" + UUID.randomUUID().toString().replace("-", "");
    }

    @AfterEach
    void stopDaemons() throws Exception {
        for (String state : new String[] {"state", "state-a", "state-b"}) {
            new Daemons(temp.resolve(state)).stop();
        }
    }

    /** Sessions in the local provider's boundary, without network: only the gateway reaches the remote. */
    private CliProcess cli(Path state) {
        return mode.cli(state).in(temp);
    }

    @Test
    void anOpenSessionFetchesWithTheTokenOfEachCommandsCallerAndLeavesNoTrace() throws Exception {
        Path state = temp.resolve("state");
        try (GitHttpServer server = new GitHttpServer(served, token)) {
            CliProcess cli = cli(state).env("GH_TOKEN", token);
            CliProcess.Result open = cli.run("open", "p2", "--repo", server.url("private.git"), "--branch", "work");
            CliProcess.Result fetch = cli.run("exec", "p2", "--", "sh", "-c", "git fetch --quiet origin && echo fetched-with-token");

            assertThat(open.exitCode()).as(open.toString()).isZero();
            assertThat(fetch.exitCode()).as(fetch.toString()).isZero();
            assertThat(fetch.stdout()).isEqualTo("fetched-with-token\n");
            // The session's commands have no token to print.
            CliProcess.Result printed = cli.run("--json", "exec", "p2", "--", "sh", "-c", "printf '%s\\n' \"${GH_TOKEN:-no token}\"");
            assertThat(printed.exitCode()).as(printed.toString()).isZero();
            assertThat(printed.stdout()).as(printed.toString()).contains("\"stdout\" : \"no token\\n\"");
            assertThat(open.stdout() + open.stderr() + fetch.stdout() + fetch.stderr() + printed.stdout() + printed.stderr())
                    .doesNotContain(token);
            assertThat(filesHolding(state, token)).as("files under the state directory holding the token").isEmpty();
        }
    }

    /**
     * What streams to the terminal is masked too: a token of no well-known shape, written in two
     * pieces a moment apart, shows as one {@code ****}. A setup secret reaches the setup only, and its
     * value printed by the setup shows masked in {@code factory log}, its {@code --json} and the open's.
     */
    @Test
    void streamedOutputAndTheSetupsSecretsShowMasked() throws Exception {
        Path state = temp.resolve("state");
        String plain = "tok." + UUID.randomUUID();
        String setupValue = "setup." + UUID.randomUUID();
        try (GitHttpServer server = new GitHttpServer(served, plain)) {
            CliProcess cli = cli(state).env("GH_TOKEN", plain).env("SETUP_VALUE_X", setupValue);
            CliProcess.Result open = cli.run("--json", "open", "p3", "--repo", server.url("private.git"), "--branch", "work",
                    "--setup-secret", "SETUP_VALUE_X", "--setup", "echo \"${SETUP_VALUE_X:+set}\" > ../setup-saw.txt; echo \"setup prints $SETUP_VALUE_X\"");
            assertThat(open.exitCode()).as(open.toString()).isZero();

            // The session holds no token (the gateway does): a token-shaped value, written in two pieces a moment apart.
            String shaped = "ghp_" + UUID.randomUUID().toString().replace("-", "");
            CliProcess.Result split = cli.run("exec", "p3", "--", "sh", "-c", "printf '%s' " + shaped.substring(0, 9) + "; sleep 0.5;"
                    + " printf '%s\\n' " + shaped.substring(9) + "; echo \"err $0\" >&2", shaped);
            assertThat(split.exitCode()).as(split.toString()).isZero();
            assertThat(split.stdout()).isEqualTo("****\n");
            assertThat(split.stderr()).contains("err ****");

            CliProcess.Result saw = cli.run("exec", "p3", "--", "sh", "-c", "cat ../setup-saw.txt; printenv SETUP_VALUE_X || echo unset");
            assertThat(saw.stdout()).as(saw.toString()).isEqualTo("set\nunset\n");
            CliProcess.Result log = cli.run("log", "p3");
            CliProcess.Result jsonLog = cli.run("--json", "log", "p3");
            assertThat(log.stdout()).as(log.toString()).contains("setup");
            assertThat(jsonLog.stdout()).as(jsonLog.toString()).contains("setup prints ****");
            String everything = open.stdout() + open.stderr() + split.stdout() + split.stderr() + saw.stdout() + saw.stderr()
                    + log.stdout() + log.stderr() + jsonLog.stdout() + jsonLog.stderr();
            assertThat(everything).doesNotContain(plain).doesNotContain(setupValue).doesNotContain(shaped.substring(4));
            assertThat(filesHolding(state, setupValue)).as("files under the state directory holding the setup secret").isEmpty();
        }
    }

    /** A setup secret that is no variable name, or that is unset, fails the open as bad input, and no session is made. */
    @Test
    void aBadOrUnsetSetupSecretFailsTheOpenBeforeAnythingIsCreated() throws Exception {
        Path state = temp.resolve("state");
        CliProcess cli = cli(state);
        String repo = served.resolve("private.git").toString();

        CliProcess.Result invalid = cli.run("--json", "open", "p4", "--repo", repo, "--branch", "w", "--setup-secret", "1BAD", "--setup", "true");
        CliProcess.Result unset = cli.run("open", "p4", "--repo", repo, "--branch", "w", "--setup-secret", "SF_UNSET_SECRET_X",
                "--setup", "true");
        CliProcess.Result list = cli.run("--json", "list");

        assertThat(invalid.exitCode()).as(invalid.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(invalid.stderr()).contains("'1BAD'");
        assertThat(invalid.stdout()).contains("\"code\" : \"INVALID_CONFIG\"");
        assertThat(unset.exitCode()).as(unset.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(unset.stderr()).contains("Setup secret SF_UNSET_SECRET_X is not set in the factory's environment");
        assertThat(list.stdout()).as(list.toString()).doesNotContain("p4");
    }

    /**
     * The store's password, under a variable the config names (not named like a secret), is masked in
     * what the CLI prints: streamed output, {@code --json} and error lines.
     */
    @Test
    void theStorePasswordIsMaskedInTheOutput() throws Exception {
        Path state = temp.resolve("state");
        String password = "store.pw." + UUID.randomUUID();
        Files.writeString(temp.resolve("factory.yaml"), "store:\n  passwordEnv: SF_STORE_PW\n");
        CliProcess cli = cli(state).env("SF_STORE_PW", password);
        String repo = served.resolve("private.git").toString();

        CliProcess.Result streamed = cli.run("run", "--repo", repo, "--branch", "work", "--", "sh", "-c",
                "echo \"out " + password + "\"; echo \"err " + password + "\" >&2");
        CliProcess.Result json = cli.run("--json", "run", "--repo", repo, "--branch", "work", "--", "echo", password);
        CliProcess.Result error = cli.run("exec", "no-such-" + password, "--", "true");

        assertThat(streamed.exitCode()).as(streamed.toString()).isZero();
        assertThat(streamed.stdout()).isEqualTo("out ****\n");
        assertThat(streamed.stderr()).contains("err ****");
        assertThat(json.exitCode()).as(json.toString()).isZero();
        assertThat(json.stdout()).contains("\"stdout\" : \"****\\n\"");
        assertThat(error.exitCode()).as(error.toString()).isNotZero();
        assertThat(error.stderr()).contains("no-such-****");
        assertThat(streamed.stdout() + streamed.stderr() + json.stdout() + json.stderr() + error.stdout() + error.stderr())
                .doesNotContain(password);
    }

        @Test
    void ghTokenFromTheEnvironmentClonesAPrivateRepositoryAndLeavesNoTrace() throws Exception {
        Path state = temp.resolve("state");
        try (GitHttpServer server = new GitHttpServer(served, token)) {
            CliProcess.Result run = cli(state).env("GH_TOKEN", token)
                    .run("run", "--keep", "--session", "p1", "--repo", server.url("private.git"), "--branch", "work",
                            "--", "sh", "-c", "cat README.md; git fetch --quiet origin && echo fetched-with-token");

            assertThat(run.exitCode()).as(run.toString()).isZero();
            assertThat(run.stdout()).isEqualTo("hello from private\nfetched-with-token\n");
            assertThat(server.authorizedRequests()).isPositive();
            assertThat(run.stdout() + run.stderr()).doesNotContain(token);
            assertThat(filesHolding(state, token)).as("files under the state directory holding the token").isEmpty();
        }
    }

    @Test
    void githubTokenIsTheFallbackAndWithoutAnyTokenTheCloneFailsAsInfrastructure() throws Exception {
        try (GitHttpServer server = new GitHttpServer(served, token)) {
            CliProcess.Result fallback = cli(temp.resolve("state-a")).env("GITHUB_TOKEN", token)
                    .run("run", "--repo", server.url("private.git"), "--branch", "work", "--", "cat", "README.md");
            assertThat(fallback.exitCode()).as(fallback.toString()).isZero();

            CliProcess.Result without = cli(temp.resolve("state-b")).env("FACTORY_PROVIDERS_LOCAL_NETWORK", "host").env("GH_TOKEN", "")
                    .env("GITHUB_TOKEN", "")
                    .run("run", "--repo", server.url("private.git"), "--branch", "work", "--", "cat", "README.md");
            assertThat(without.exitCode()).as(without.toString()).isEqualTo(ExitCodes.INFRASTRUCTURE);
            assertThat(without.stderr()).contains("Cloning");
        }
    }

    private static java.util.List<Path> filesHolding(Path root, String secret) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile).filter(file -> {
                try {
                    return new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.ISO_8859_1).contains(secret);
                } catch (IOException e) {
                    return false;
                }
            }).toList();
        }
    }
}
