package io.sandboxfactory.cli;

import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code factory mcp} on the docker provider, driven by the MCP Java SDK client: commands and files
 * go through a container with no network, which clones the repository from a read-only bind mount.
 */
class McpDockerIT {

    @TempDir
    Path temp;

    Path state;
    Path config;
    String session;
    McpClientSession mcp;

    @BeforeEach
    void setUp() throws Exception {
        DockerEngineGate.require();
        state = temp.resolve("state");
        Path repos = temp.resolve("repos");
        Files.createDirectories(repos);
        GitRepos.bareWithMain(repos, "app");
        String run = UUID.randomUUID().toString().substring(0, 8);
        session = "mcp-docker-" + run;
        config = DockerTestConfig.write(temp, "it-cli-mcp-" + run, repos);
    }

    @AfterEach
    void removeContainer() {
        if (mcp != null) {
            mcp.close();
        }
        if (config != null) {
            // A test that failed half-way leaves no container behind.
            new CliProcess(state).in(temp).run("--config", config.toString(), "retire", session, "--delete");
        }
    }

    @Test
    void commandsFilesDiffExportAndShellOfAnAgentsSessionGoThroughItsContainer() {
        mcp = new McpClientSession(state, McpServerIT.environment(Map.of()), config);
        Path repo = temp.resolve("repos/app.git");
        Map<String, Object> opened = mcp.ok("session_open", Map.of("id", session, "repo", repo.toString(), "branch", "agent"));
        assertThat(opened).containsEntry("provider", "docker");

        mcp.ok("file_write", Map.of("id", session, "path", "notes/todo.txt", "content", "first\nsecond\n"));
        mcp.ok("file_edit", Map.of("id", session, "path", "notes/todo.txt", "old_string", "second", "new_string", "2nd"));
        assertThat(mcp.ok("file_read", Map.of("id", session, "path", "notes/todo.txt"))).containsEntry("content", "first\n2nd\n");
        byte[] binary = {0, (byte) 0x80, 1};
        mcp.ok("file_write", Map.of("id", session, "path", "b.bin", "content", Base64.getEncoder().encodeToString(binary), "encoding", "base64"));
        assertThat(Base64.getDecoder().decode((String) mcp.ok("file_read", Map.of("id", session, "path", "b.bin")).get("content")))
                .isEqualTo(binary);
        assertThat(mcp.ok("file_list", Map.of("id", session)).get("entries")).asList()
                .extracting(e -> (Object) ((Map<?, ?>) e).get("name")).contains("notes", "b.bin", "README.md");
        mcp.ok("file_delete", Map.of("id", session, "path", "b.bin"));
        assertThat(mcp.error("file_read", Map.of("id", session, "path", "b.bin"))).contains("b.bin");
        assertThat(mcp.error("file_read", Map.of("id", session, "path", "../../etc/passwd"))).contains("..");

        McpSchema.CallToolResult exec = mcp.callWithProgress("session_exec", Map.of("id", session,
                "command", "cat notes/todo.txt; hostname >/dev/null; [ -f /.dockerenv ] && echo in-a-container"), "d-1");
        @SuppressWarnings("unchecked")
        Map<String, Object> result = (Map<String, Object>) exec.structuredContent();
        assertThat(result).as(McpClientSession.text(exec)).containsEntry("exitCode", 0)
                .containsEntry("stdout", "first\n2nd\nin-a-container\n");
        mcp.awaitProgress("d-1", notes -> notes.stream().map(McpSchema.ProgressNotification::message).reduce("", String::concat)
                .contains("in-a-container"));

        Map<String, Object> diff = mcp.ok("session_diff", Map.of("id", session));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> repositories = (List<Map<String, Object>>) diff.get("repositories");
        assertThat(repositories.get(0).get("untracked")).asList().containsExactly("notes/todo.txt");

        // export: a bundle made in the container (no network), copied out, fetched into a clone on the host.
        assertThat(mcp.ok("session_exec", Map.of("id", session, "command",
                "git add notes && git -c user.name=A -c user.email=a@example.invalid commit -qm notes && git rev-parse HEAD")))
                .containsEntry("exitCode", 0);
        String head = (String) mcp.ok("session_exec", Map.of("id", session, "command", "git rev-parse HEAD")).get("stdout");
        Path local = temp.resolve("local");
        GitRepos.git(temp, "clone", "-q", repo.toString(), local.toString());
        CliProcess.Result export = new CliProcess(state).in(local).run("--config", config.toString(), "export", session);
        assertThat(export.exitCode()).as(export.toString()).isZero();
        assertThat(GitRepos.git(local, "rev-parse", "factory/" + session + "/agent")).isEqualTo(head);
        assertThat(GitRepos.git(local, "show", "factory/" + session + "/agent:notes/todo.txt")).isEqualTo("first\n2nd\n");

        // shell: docker exec into the same container, commands from a pipe.
        CliProcess.Result shell = new CliProcess(state).in(temp).runWithInput("[ -f /.dockerenv ] && echo shell-in-container; cat notes/todo.txt;"
                + " exit 4\n", "--config", config.toString(), "shell", session);
        assertThat(shell.exitCode()).as(shell.toString()).isEqualTo(4);
        assertThat(shell.stdout()).isEqualTo("shell-in-container\nfirst\n2nd\n");

        assertThat(mcp.ok("session_retire", Map.of("id", session, "delete", true))).containsEntry("outcome", "retired");
    }
}
