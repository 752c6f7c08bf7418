package io.sandboxfactory.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.sandboxfactory.cli.mcp.McpSessionTools;
import io.sandboxfactory.core.testing.GitHttpServer;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code factory mcp} driven by the MCP Java SDK's client over stdio: the real jar, real git, real
 * bare repositories, the local provider. Sessions it opens are the CLI's ordinary sessions.
 */
class McpServerIT {

    /** The first request of a client, as {@link #rawServer} takes it on stdin. */
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}\n";

    @TempDir
    Path temp;

    Path state;
    Path bare;
    CliProcess cli;
    McpClientSession mcp;

    @BeforeEach
    void setUp() throws Exception {
        state = temp.resolve("state");
        bare = GitRepos.bareWithMain(temp, "app");
        cli = new CliProcess(state).in(temp);
    }

    @AfterEach
    void close() {
        if (mcp != null) {
            mcp.close();
        }
    }

    static Map<String, String> environment(Map<String, String> extra) {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.keySet().removeIf(k -> k.startsWith("FACTORY_") || k.equals("GH_TOKEN") || k.equals("GITHUB_TOKEN"));
        env.putAll(extra);
        return env;
    }

    private McpClientSession start() {
        mcp = new McpClientSession(state, environment(Map.of()));
        return mcp;
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyToolIsListedWithADescriptionAndASchemaOfItsArguments() {
        List<McpSchema.Tool> tools = start().client.listTools().tools();

        assertThat(tools).extracting(McpSchema.Tool::name).containsExactlyInAnyOrder("session_open", "session_exec", "session_status",
                "session_list", "session_diff", "session_log", "session_egress", "session_retire", "file_read", "file_write", "file_edit", "file_list", "file_delete");
        for (McpSchema.Tool tool : tools) {
            assertThat(tool.description()).as(tool.name()).hasSizeGreaterThan(40);
            assertThat(tool.inputSchema()).containsEntry("type", "object");
        }
        McpSchema.Tool exec = tools.stream().filter(t -> t.name().equals("session_exec")).findFirst().orElseThrow();
        assertThat(exec.inputSchema().get("required")).asList().containsExactlyInAnyOrder("id", "command");
        assertThat((Map<String, Object>) exec.inputSchema().get("properties")).containsKeys("workdir", "timeout");
    }

    @Test
    void theToolsShowTheSessionStatesTheCliShows() throws Exception {
        McpClientSession mcp = start();
        Map<String, Object> opened = mcp.ok("session_open", Map.of("id", "states", "repo", bare.toString(), "branch", "b"));
        assertThat(opened).containsEntry("status", "idle");
        assertThat(mcp.ok("session_status", Map.of("id", "states"))).containsEntry("status", "idle");

        // A command of the CLI, held until the test creates the file in the checkout, runs in the agent's session.
        Process held = cli.start("exec", "states", "--", "sh", "-c", "while [ ! -f release ]; do sleep 0.1; done");
        try {
            assertThat(Daemons.awaitCondition(() -> "running".equals(mcp.ok("session_status", Map.of("id", "states")).get("status"))))
                    .as("running while the CLI's command runs").isTrue();
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> sessions = (List<Map<String, Object>>) mcp.ok("session_list", Map.of()).get("sessions");
            assertThat(sessions).extracting(row -> row.get("status")).containsExactly("running");
            Files.writeString(Path.of((String) opened.get("checkout")).resolve("release"), "");
            assertThat(held.waitFor(60, TimeUnit.SECONDS)).isTrue();
        } finally {
            held.destroyForcibly();
        }
        assertThat(mcp.ok("session_status", Map.of("id", "states"))).containsEntry("status", "idle");
        assertThat(mcp.ok("session_exec", Map.of("id", "states", "command", "true"))).containsEntry("exitCode", 0);

        assertThat(mcp.ok("session_retire", Map.of("id", "states"))).containsEntry("outcome", "retired").containsEntry("mode", "stop");
        assertThat(mcp.ok("session_status", Map.of("id", "states"))).containsEntry("status", "stopped");
        assertThat(new ObjectMapper().readTree(cli.run("--json", "status", "states").stdout()).get("status").asText()).isEqualTo("stopped");
    }

    @Test
    void anAgentOpensEditsRunsDiffsAndRetiresASessionTheCliSeesAsItsOwn() {
        McpClientSession mcp = start();
        Map<String, Object> opened = mcp.ok("session_open", Map.of("id", "agent-1", "repo", bare.toString(), "branch", "feature/x",
                "labels", Map.of("task", "42")));
        assertThat(opened.get("checkout")).asString().endsWith("/app");
        assertThat(opened).containsEntry("branch", "feature/x");

        mcp.ok("file_write", Map.of("id", "agent-1", "path", "src/greet.sh", "content", "echo hello\necho world\n"));
        Map<String, Object> edited = mcp.ok("file_edit", Map.of("id", "agent-1", "path", "src/greet.sh", "old_string", "world",
                "new_string", "agents"));
        assertThat(edited).containsEntry("replacements", 1);
        mcp.ok("file_edit", Map.of("id", "agent-1", "path", "README.md", "old_string", "hello from app", "new_string", "hi from app"));
        assertThat(mcp.ok("file_read", Map.of("id", "agent-1", "path", "src/greet.sh"))).containsEntry("content", "echo hello\necho agents\n")
                .containsEntry("encoding", "utf-8").containsEntry("truncated", false);

        McpSchema.CallToolResult run = mcp.callWithProgress("session_exec", Map.of("id", "agent-1",
                "command", "sh src/greet.sh; echo oops >&2; git rev-parse --abbrev-ref HEAD; exit 3"), "run-1");
        assertThat(run.isError()).as(McpClientSession.text(run)).isFalse();
        @SuppressWarnings("unchecked")
        Map<String, Object> result = (Map<String, Object>) run.structuredContent();
        assertThat(result).containsEntry("exitCode", 3).containsEntry("timedOut", false).containsEntry("stdoutTruncated", false)
                .containsEntry("stdout", "hello\nagents\nfeature/x\n").containsEntry("stderr", "oops\n");
        // The client hands notifications to its consumer on a thread of its own: they may land after the result.
        List<McpSchema.ProgressNotification> progress = mcp.awaitProgress("run-1",
                notes -> streamed(notes, "stdout").equals("hello\nagents\nfeature/x\n") && streamed(notes, "stderr").equals("oops\n"));
        assertThat(progress).extracting(McpSchema.ProgressNotification::progress).doesNotHaveDuplicates();

        Map<String, Object> diff = mcp.ok("session_diff", Map.of("id", "agent-1"));
        assertThat((String) diff.get("patch")).contains("-hello from app").contains("+hi from app");
        @SuppressWarnings("unchecked")
        Map<String, Object> repository = ((List<Map<String, Object>>) diff.get("repositories")).get(0);
        assertThat(repository).containsEntry("base", "main");
        assertThat(repository.get("untracked")).asList().containsExactly("src/greet.sh");
        assertThat(repository.get("files")).asList().hasSize(1);

        // The CLI sees the session the agent opened, and the agent sees the CLI's changes.
        CliProcess.Result cat = cli.run("cat", "agent-1:src/greet.sh");
        assertThat(cat.stdout()).as(cat.toString()).isEqualTo("echo hello\necho agents\n");
        assertThat(cli.run("exec", "agent-1", "--", "sh", "-c", "echo from-cli > cli.txt").exitCode()).isZero();
        assertThat(mcp.ok("file_list", Map.of("id", "agent-1")).get("entries")).asList().extracting(e -> (Object) ((Map<?, ?>) e).get("name"))
                .contains("cli.txt", "src", "README.md");
        assertThat(mcp.ok("session_status", Map.of("id", "agent-1"))).containsEntry("branch", "feature/x")
                .containsEntry("labels", Map.of("task", "42"));
        assertThat(mcp.ok("session_list", Map.of()).get("sessions")).asList().hasSize(1);

        // The journal holds the commands of both, each with its origin.
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> journal = (List<Map<String, Object>>) mcp.ok("session_log", Map.of("id", "agent-1")).get("entries");
        assertThat(journal).extracting(e -> e.get("origin") + " " + e.get("command") + " " + e.get("exitCode")).containsExactly(
                "mcp sh -c 'sh src/greet.sh; echo oops >&2; git rev-parse --abbrev-ref HEAD; exit 3' 3",
                "cli sh -c 'echo from-cli > cli.txt' 0");
        assertThat(journal.get(0)).containsEntry("stderrTail", "oops\n");
        assertThat(mcp.ok("session_log", Map.of("id", "agent-1", "limit", 1)).get("entries")).asList().hasSize(1);

        mcp.ok("file_delete", Map.of("id", "agent-1", "path", "cli.txt"));
        assertThat(cli.run("ls", "agent-1").stdout()).doesNotContain("cli.txt");

        assertThat(mcp.ok("session_retire", Map.of("id", "agent-1", "delete", true))).containsEntry("outcome", "retired");
        assertThat(cli.run("status", "agent-1").exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(state.resolve("sessions/agent-1")).doesNotExist();
    }

    /**
     * The link-swap attack through MCP (a smaller run than the kit's): while a CLI command swaps a
     * directory of the checkout between a real directory and a link to a host directory, file_write
     * and file_list on it never create anything in the host directory nor show its entry.
     */
    @Test
    @SuppressWarnings("unchecked")
    void aCommandSwappingADirectoryForAHostLinkNeverLetsFileWriteOrFileListReachTheHost() throws Exception {
        McpClientSession mcp = start();
        Path checkout = Path.of((String) mcp.ok("session_open", Map.of("id", "race-1", "repo", bare.toString(), "branch", "w")).get("checkout"));
        Path host = Files.createDirectories(temp.resolve("host"));
        Files.writeString(host.resolve("host-only-entry"), "secret");
        mcp.ok("session_exec", Map.of("id", "race-1", "command", "mkdir -p d"));
        String swapper = ": > started; i=0; while [ $i -lt 300 ]; do mv -T d d.real; ln -s " + host + " d; rm -f d; rm -rf d;"
                + " mv -T d.real d; i=$((i + 1)); done 2>/dev/null; rm -f started; [ -d d ]";
        CompletableFuture<CliProcess.Result> swapping = CompletableFuture.supplyAsync(() -> cli.run("exec", "race-1", "--", "sh", "-c", swapper));
        while (!Files.exists(checkout.resolve("started")) && !swapping.isDone()) {
            Thread.onSpinWait();
        }
        Set<String> shown = new HashSet<>();
        for (int i = 0; i < 60; i++) {
            mcp.call("file_write", Map.of("id", "race-1", "path", "d/w" + i, "content", "written"));
            McpSchema.CallToolResult listed = mcp.call("file_list", Map.of("id", "race-1", "path", "d"));
            if (!Boolean.TRUE.equals(listed.isError())) {
                for (Object entry : (List<Object>) ((Map<String, Object>) listed.structuredContent()).get("entries")) {
                    shown.add((String) ((Map<String, Object>) entry).get("name"));
                }
            }
        }
        CliProcess.Result swapped = swapping.join();
        assertThat(swapped.exitCode()).as(swapped.toString()).isZero();
        assertThat(shown).doesNotContain("host-only-entry");
        try (Stream<Path> entries = Files.list(host)) {
            assertThat(entries).containsExactly(host.resolve("host-only-entry"));
        }
        assertThat(host.resolve("host-only-entry")).hasContent("secret");
    }

    private static String streamed(List<McpSchema.ProgressNotification> notes, String stream) {
        return notes.stream().sorted(java.util.Comparator.comparing(McpSchema.ProgressNotification::progress))
                .filter(p -> stream.equals(p.meta().get("stream"))).map(McpSchema.ProgressNotification::message).collect(Collectors.joining());
    }

    @Test
    void failuresAreToolResultsWithOneSentenceAndBadInputLeavesNothingBehind() throws Exception {
        McpClientSession mcp = start();
        assertThat(mcp.error("session_open", Map.of("id", "../up", "repo", bare.toString(), "branch", "b")))
                .contains("'../up'").doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(mcp.error("session_open", Map.of("id", "b1", "repo", bare.toString(), "branch", "no..dots"))).contains("no..dots");
        assertThat(mcp.error("session_open", Map.of("id", "b1", "repo", bare.toString()))).contains("branch");
        assertThat(mcp.error("session_open", Map.of("id", "b1", "repo", bare.toString(), "branch", "b", "colour", "red")))
                .contains("'colour'");
        assertThat(mcp.error("session_exec", Map.of("id", "nobody", "command", "true"))).contains("'nobody'").contains("not known");
        // An agent is told which tool to call, not which command to type.
        Map<String, Map<String, Object>> unknownSession = Map.of("session_exec", Map.of("id", "nobody", "command", "true"),
                "session_status", Map.of("id", "nobody"), "session_diff", Map.of("id", "nobody"), "session_log", Map.of("id", "nobody"),
                "file_read", Map.of("id", "nobody", "path", "a.txt"));
        unknownSession.forEach((tool, arguments) -> assertThat(mcp.error(tool, arguments)).as(tool)
                .contains("open it first with the session_open tool").doesNotContain("factory open"));
        assertThat(mcp.ok("session_list", Map.of()).get("sessions")).asList().isEmpty();
        assertThat(state.resolve("sessions/b1")).doesNotExist();

        mcp.ok("session_open", Map.of("id", "e1", "repo", bare.toString(), "branch", "b"));
        assertThat(mcp.error("file_read", Map.of("id", "e1", "path", "../../etc/passwd"))).contains("../../etc/passwd").contains("..");
        assertThat(mcp.error("file_write", Map.of("id", "e1", "path", "/tmp/x", "content", "x"))).contains("/tmp/x");
        assertThat(mcp.error("file_read", Map.of("id", "e1", "path", "missing.txt"))).contains("missing.txt");
        assertThat(mcp.failure("file_read", Map.of("id", "e1", "path", "../../etc/passwd")))
                .containsEntry("code", "PATH_OUTSIDE_ROOT").containsEntry("kind", "BAD_INPUT");
        assertThat(mcp.failure("file_read", Map.of("id", "e1", "path", "missing.txt")))
                .containsEntry("code", "FILE_NOT_FOUND").containsEntry("kind", "BAD_INPUT");
        assertThat(mcp.failure("session_exec", Map.of("id", "nobody", "command", "true")))
                .containsEntry("code", "BAD_INPUT").containsEntry("kind", "BAD_INPUT");
        assertThat(mcp.error("file_delete", Map.of("id", "e1", "path", ""))).contains("root");
        assertThat(mcp.error("session_exec", Map.of("id", "e1", "command", "true", "timeout", "soon"))).contains("soon");
        assertThat(mcp.error("session_exec", Map.of("id", "e1", "command", 42))).contains("'command'").contains("string");
        assertThat(mcp.error("session_exec", Map.of("id", "e1", "command", "pwd", "workdir", "../.."))).contains("../..");

        mcp.ok("file_write", Map.of("id", "e1", "path", "a.txt", "content", "x = 1\nx = 1\n"));
        assertThat(mcp.error("file_edit", Map.of("id", "e1", "path", "a.txt", "old_string", "x = 1", "new_string", "x = 2")))
                .contains("'x = 1'").contains("occurs 2 times");
        assertThat(mcp.error("file_edit", Map.of("id", "e1", "path", "a.txt", "old_string", "y = 1", "new_string", "y = 2")))
                .contains("'y = 1'").contains("does not occur");
        assertThat(mcp.ok("file_read", Map.of("id", "e1", "path", "a.txt"))).containsEntry("content", "x = 1\nx = 1\n");
        assertThat(mcp.ok("file_edit", Map.of("id", "e1", "path", "a.txt", "old_string", "x = 1", "new_string", "x = 2",
                "replace_all", true))).containsEntry("replacements", 2);
    }

    @Test
    @SuppressWarnings("unchecked")
    void anAgentReadsAndChangesASessionsEgressRulesLive() {
        mcp = new McpClientSession(state, environment(Map.of("FACTORY_EGRESS_MODE", "allowlist", "FACTORY_EGRESS_ALLOW", "allowed.test")));
        mcp.ok("session_open", Map.of("id", "g1", "repo", bare.toString(), "branch", "b", "egress_allow", List.of("*.npm.test")));
        assertThat((Map<String, Object>) mcp.ok("session_status", Map.of("id", "g1")).get("egress"))
                .containsEntry("mode", "allowlist").containsEntry("allow", List.of("allowed.test", "*.npm.test"));
        assertThat(mcp.ok("session_egress", Map.of("id", "g1", "allow", List.of("api.test:443"), "deny", List.of("x.npm.test"))))
                .containsEntry("session", "g1").containsEntry("allow", List.of("allowed.test", "*.npm.test", "api.test:443"))
                .containsEntry("deny", List.of("x.npm.test"));
        assertThat(mcp.ok("session_egress", Map.of("id", "g1"))).containsEntry("deny", List.of("x.npm.test"));
        assertThat(mcp.error("session_egress", Map.of("id", "g1", "allow", List.of("http://x.test")))).contains("'http://x.test'");
        assertThat(mcp.error("session_egress", Map.of("id", "nobody"))).contains("open it first with the session_open tool");
        assertThat(cli.env("FACTORY_EGRESS_MODE", "allowlist").run("--json", "egress", "g1").stdout()).contains("api.test:443");
    }

    @Test
    void filesReadByLinesOrAsBase64AndCommandsTimeOutWithAMessage() {
        McpClientSession mcp = start();
        mcp.ok("session_open", Map.of("id", "f1", "repo", bare.toString(), "branch", "b"));
        mcp.ok("file_write", Map.of("id", "f1", "path", "lines.txt", "content", "1\n2\n3\n4\n5\n"));
        assertThat(mcp.ok("file_read", Map.of("id", "f1", "path", "lines.txt", "offset", 1, "limit", 2)))
                .containsEntry("content", "2\n3\n").containsEntry("totalLines", 5).containsEntry("truncated", true);

        byte[] binary = {0, 1, 2, (byte) 0xff, 10, 0};
        mcp.ok("file_write", Map.of("id", "f1", "path", "blob.bin", "content", Base64.getEncoder().encodeToString(binary),
                "encoding", "base64"));
        Map<String, Object> read = mcp.ok("file_read", Map.of("id", "f1", "path", "blob.bin"));
        assertThat(read).containsEntry("encoding", "base64").containsEntry("totalBytes", 6);
        assertThat(Base64.getDecoder().decode((String) read.get("content"))).isEqualTo(binary);

        Map<String, Object> slow = mcp.ok("session_exec", Map.of("id", "f1", "command", "sleep 30", "timeout", "2s"));
        assertThat(slow).containsEntry("exitCode", 124).containsEntry("timedOut", true);
        assertThat((String) slow.get("message")).contains("timed out after 2s");

        Map<String, Object> big = mcp.ok("session_exec", Map.of("id", "f1", "command", "head -c 100000 /dev/zero | tr '\\0' a"));
        assertThat(big).containsEntry("stdoutTruncated", true);
        assertThat((String) big.get("stdout")).hasSize((int) McpSessionTools.EXEC_TAIL_BYTES);
    }

    @Test
    void aTokenReachesGitButNoToolResultAndNoLogLine() throws Exception {
        Path served = temp.resolve("served");
        Files.createDirectories(served);
        GitRepos.bareWithMain(served, "private");
        String token = "ghp_mcp" + UUID.randomUUID().toString().replace("-", "");
        try (GitHttpServer server = new GitHttpServer(served, token)) {
            // The session has no network: the clone and the fetch go through the server's Git gateway.
            mcp = new McpClientSession(state, environment(Map.of("GH_TOKEN", token)));
            List<String> answers = new ArrayList<>();
            answers.add(McpClientSession.text(mcp.call("session_open", Map.of("id", "p1", "repo", server.url("private.git"), "branch", "w"))));
            answers.add(McpClientSession.text(mcp.call("session_exec", Map.of("id", "p1", "command", "git fetch -q origin && echo fetched"))));
            answers.add(McpClientSession.text(mcp.call("session_status", Map.of("id", "p1"))));
            answers.add(McpClientSession.text(mcp.call("file_read", Map.of("id", "p1", "path", ".git/config"))));
            // An agent asks for the token outright (the session has none), and for a token-shaped value the factory was never
            // told: masked, in the result and in the output streamed as progress.
            String shaped = "ghp_" + "Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8";
            McpSchema.CallToolResult printed = mcp.callWithProgress("session_exec", Map.of("id", "p1",
                    "command", "printf '%s\\n' \"${GH_TOKEN:-no token}\" " + shaped), "secrets-1");
            answers.add(McpClientSession.text(printed));
            assertThat(printed.structuredContent()).as(McpClientSession.text(printed)).asInstanceOf(InstanceOfAssertFactories.MAP)
                    .containsEntry("stdout", "no token\n****\n");
            String progress = streamed(mcp.awaitProgress("secrets-1", notes -> streamed(notes, "stdout").contains("no token\n****")), "stdout");
            assertThat(progress).doesNotContain(token).doesNotContain(shaped);
            // Written in two pieces a moment apart, a token-shaped value still streams as one ****.
            McpSchema.CallToolResult split = mcp.callWithProgress("session_exec", Map.of("id", "p1", "command",
                    "printf '%s' " + shaped.substring(0, 9) + "; sleep 0.5; printf '%s\\n' " + shaped.substring(9)), "secrets-2");
            answers.add(McpClientSession.text(split));
            String splitProgress = streamed(mcp.awaitProgress("secrets-2", notes -> streamed(notes, "stdout").contains("\n")), "stdout");
            assertThat(splitProgress).isEqualTo("****\n");
            assertThat(answers.get(1)).as(answers.get(0)).contains("fetched");
            assertThat(String.join("\n", answers)).doesNotContain(token);
            assertThat(String.join("\n", mcp.stderr)).doesNotContain(token);
        }
    }

    /** {@code factory [options] mcp} of the real jar, spoken to without a client library; its stderr goes to {@code stderr}. */
    private Process rawServer(Path stderr, String... options) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                Path.of(System.getProperty("factory.jar", "target/factory.jar")).toAbsolutePath().toString(),
                "--state-dir", state.toString()));
        command.addAll(List.of(options));
        command.add("mcp");
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(stderr.toFile());
        builder.environment().clear();
        builder.environment().putAll(environment(Map.of()));
        return builder.start();
    }

    @Test
    void aServerAskedToEndLikeCtrlCClosesWithoutAnErrorLine() throws Exception {
        Path stderr = temp.resolve("stderr.txt");
        Process process = rawServer(stderr);
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            process.getOutputStream().write(INITIALIZE.getBytes(StandardCharsets.UTF_8));
            process.getOutputStream().flush();
            assertThat(out.readLine()).as("the server serves").contains("\"id\":1").contains("sandbox-factory");

            // Not Process.destroy(): closing stdin, as it also does, would end the server by itself.
            TestProcesses.endLikeCtrlC(process);

            assertThat(Files.readString(stderr)).as("an end it was asked for is no error").doesNotContain("factory:").doesNotContain("Exception");
        } finally {
            process.destroyForcibly();
        }
    }

    @Test
    void stdoutCarriesNothingButProtocolMessagesEvenWithVerboseLogging() throws Exception {
        Process process = rawServer(temp.resolve("stderr.txt"), "--verbose");
        String call = "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":{\"name\":\"%s\",\"arguments\":%s}}\n";
        String requests = INITIALIZE
                + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
                + String.format(call, 2, "session_open", "{\"id\":\"raw\",\"repo\":\"" + bare + "\",\"branch\":\"b\",\"setup\":[\"echo set-up\"]}");
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> messages = new ArrayList<>();
        try (OutputStream in = process.getOutputStream();
             BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            in.write(requests.getBytes(StandardCharsets.UTF_8));
            in.flush();
            // One answer per request, in turn: the next goes out once the one before is answered.
            messages.add(json.readTree(out.readLine()));
            messages.add(json.readTree(out.readLine()));
            in.write(String.format(call, 3, "session_exec", "{\"id\":\"raw\",\"command\":\"echo to-stdout\"}").getBytes(StandardCharsets.UTF_8));
            in.flush();
            messages.add(json.readTree(out.readLine()));
            in.close();
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                messages.add(json.readTree(line));
            }
        }
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("factory mcp ends when stdin closes").isTrue();
        assertThat(process.exitValue()).isZero();
        assertThat(messages).allSatisfy(m -> assertThat(m.path("jsonrpc").asText()).isEqualTo("2.0"));
        assertThat(messages).extracting(m -> m.path("id").asInt()).containsExactly(1, 2, 3);
        assertThat(messages.get(2).path("result").path("structuredContent").path("stdout").asText()).isEqualTo("to-stdout\n");
        assertThat(Files.readString(temp.resolve("stderr.txt"))).contains("debug");
    }
}
