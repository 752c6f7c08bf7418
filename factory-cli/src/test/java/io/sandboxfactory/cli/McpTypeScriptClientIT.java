package io.sandboxfactory.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code factory mcp} driven by the official MCP TypeScript SDK client ({@code @modelcontextprotocol/sdk},
 * pinned in {@code src/test/mcp-ts}) on node, through a whole agent loop: open, write a file, edit it,
 * run a test command with streamed progress, diff, retire. Needs node and the client installed by
 * {@code scripts/mcp-ts-client.sh}; skipped without them, unless {@code CI=true}, where it fails.
 */
class McpTypeScriptClientIT {

    @TempDir
    Path temp;

    Path state;
    Path bare;

    @BeforeEach
    void setUp() throws Exception {
        state = temp.resolve("state");
        bare = GitRepos.bareWithMain(temp, "app");
    }

    @Test
    void theTypeScriptClientRunsAnAgentsLoopOnASessionTheCliSees() throws Exception {
        Path client = installedClient();
        Path script = client.resolve("agent-loop.mjs");
        // Beside its node_modules, where node resolves the SDK from; always this build's version of the loop.
        Files.copy(Path.of("src/test/mcp-ts/agent-loop.mjs"), script, StandardCopyOption.REPLACE_EXISTING);
        String jar = Path.of(System.getProperty("factory.jar", "target/factory.jar")).toAbsolutePath().toString();
        List<String> command = new ArrayList<>(List.of(node().orElseThrow().toString(), script.toString(),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), jar, state.toString(), bare.toString()));

        CliProcess.Result loop = CliProcess.exec(command, temp, Map.of());

        assertThat(loop.exitCode()).as(loop.toString()).isZero();
        JsonNode seen = new ObjectMapper().readTree(loop.stdout());
        assertThat(seen.path("tools").toString()).contains("session_open", "session_exec", "session_diff", "session_retire",
                "file_read", "file_write", "file_edit", "file_list", "file_delete", "session_status", "session_list", "session_log");
        assertThat(seen.path("open").path("branch").asText()).isEqualTo("ts/feature");
        assertThat(seen.path("edit").path("replacements").asInt()).isEqualTo(1);
        assertThat(seen.path("exec").path("exitCode").asInt()).isZero();
        assertThat(seen.path("exec").path("stdout").asText()).isEqualTo("test passed\n");
        StringBuilder streamed = new StringBuilder();
        seen.path("progress").forEach(p -> streamed.append(p.path("message").asText()));
        assertThat(streamed.toString()).isEqualTo("test passed\n");
        JsonNode repository = seen.path("diff").path("repositories").get(0);
        assertThat(seen.path("diff").path("patch").asText()).contains("-hello from app").contains("+hello, agent, from app");
        assertThat(repository.path("untracked").toString()).contains("calc.sh", "test.sh");
        assertThat(seen.path("failedEdit").path("isError").asBoolean()).isTrue();
        assertThat(seen.path("failedEdit").path("content").get(0).path("text").asText()).contains("'no such text' does not occur");
        assertThat(seen.path("failedEdit").path("structuredContent").path("code").asText()).isEqualTo("BAD_INPUT");
        assertThat(seen.path("failedEdit").path("structuredContent").path("kind").asText()).isEqualTo("BAD_INPUT");
        assertThat(seen.path("retire").path("outcome").asText()).isEqualTo("retired");

        assertThat(state.resolve("sessions/ts-agent")).doesNotExist();
        CliProcess.Result status = new CliProcess(state).in(temp).run("status", "ts-agent");
        assertThat(status.exitCode()).as(status.toString()).isEqualTo(ExitCodes.BAD_INPUT);
    }

    private static Path installedClient() {
        String configured = System.getenv("MCP_TS_CLIENT_DIR");
        Path dir = Path.of(configured != null ? configured : System.getProperty("mcp.ts.client.dir", "target/mcp-ts-client")).toAbsolutePath();
        String missing = node().isEmpty() ? "node is not on the PATH"
                : !Files.isRegularFile(dir.resolve("node_modules/@modelcontextprotocol/sdk/package.json"))
                ? "the MCP TypeScript client is not installed in " + dir : null;
        if (missing != null) {
            String message = missing + "; install node and npm (Debian: apt-get install nodejs npm), then run scripts/mcp-ts-client.sh";
            if ("true".equals(System.getenv("CI"))) {
                throw new IllegalStateException("CI=true and " + message + ".");
            }
            Assumptions.abort("Skipped: " + message + ".");
        }
        return dir;
    }

    private static Optional<Path> node() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            for (String name : new String[] {"node", "nodejs"}) {
                Path candidate = Path.of(dir, name);
                if (Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }
}
