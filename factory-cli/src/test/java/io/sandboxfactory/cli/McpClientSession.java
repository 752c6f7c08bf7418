package io.sandboxfactory.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code factory mcp} of the real jar as a subprocess, driven by the MCP Java SDK's own client over
 * stdio, as an agent's host drives it.
 */
final class McpClientSession implements AutoCloseable {

    final McpSyncClient client;
    final List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();
    final List<String> stderr = new CopyOnWriteArrayList<>();

    McpClientSession(Path stateDir, Map<String, String> env) {
        this(stateDir, env, null);
    }

    /** With {@code config} as {@code --config} when not null. */
    McpClientSession(Path stateDir, Map<String, String> env, Path config) {
        String jar = Path.of(System.getProperty("factory.jar", "target/factory.jar")).toAbsolutePath().toString();
        if (!Files.isRegularFile(Path.of(jar))) {
            throw new IllegalStateException("The CLI jar " + jar + " is missing; run the package phase first.");
        }
        ServerParameters server = ServerParameters.builder(Path.of(System.getProperty("java.home"), "bin", "java").toString())
                .args(config == null ? List.of("-jar", jar, "--state-dir", stateDir.toString(), "mcp")
                        : List.of("-jar", jar, "--state-dir", stateDir.toString(), "--config", config.toString(), "mcp")).env(env).build();
        StdioClientTransport transport = new StdioClientTransport(server, new JacksonMcpJsonMapper(new ObjectMapper()));
        transport.setStdErrorHandler(stderr::add);
        client = McpClient.sync(transport).requestTimeout(Duration.ofMinutes(5)).initializationTimeout(Duration.ofMinutes(2))
                .progressConsumer(this::received).build();
        client.initialize();
    }

    McpSchema.CallToolResult call(String tool, Map<String, Object> arguments) {
        return client.callTool(new McpSchema.CallToolRequest(tool, arguments));
    }

    /** The progress notifications of {@code token} once they satisfy {@code complete}; fails after two minutes without. */
    List<McpSchema.ProgressNotification> awaitProgress(String token, Predicate<List<McpSchema.ProgressNotification>> complete) {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        synchronized (progress) {
            while (true) {
                List<McpSchema.ProgressNotification> mine = progress.stream().filter(p -> token.equals(p.progressToken())).toList();
                if (complete.test(mine)) {
                    return mine;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("The progress notifications of " + token + " never became complete: " + mine);
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(progress, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError(e);
                }
            }
        }
    }

    private void received(McpSchema.ProgressNotification note) {
        synchronized (progress) {
            progress.add(note);
            progress.notifyAll();
        }
    }

    McpSchema.CallToolResult callWithProgress(String tool, Map<String, Object> arguments, String token) {
        return client.callTool(McpSchema.CallToolRequest.builder(tool).arguments(arguments).progressToken(token).build());
    }

    /** The structured content of a successful call; fails with the result's text when it was an error. */
    @SuppressWarnings("unchecked")
    Map<String, Object> ok(String tool, Map<String, Object> arguments) {
        McpSchema.CallToolResult result = call(tool, arguments);
        if (Boolean.TRUE.equals(result.isError())) {
            throw new AssertionError(tool + " failed: " + text(result) + "\nstderr: " + stderr);
        }
        return (Map<String, Object>) result.structuredContent();
    }

    /** The one sentence of a failed call; fails when the call succeeded. */
    String error(String tool, Map<String, Object> arguments) {
        return text(failed(tool, arguments));
    }

    /** The structured content of a failed call ({@code error}, {@code code}, {@code kind}); fails when the call succeeded. */
    @SuppressWarnings("unchecked")
    Map<String, Object> failure(String tool, Map<String, Object> arguments) {
        McpSchema.CallToolResult result = failed(tool, arguments);
        assertThat(result.structuredContent()).as(text(result)).isInstanceOf(Map.class);
        Map<String, Object> failure = (Map<String, Object>) result.structuredContent();
        assertThat(failure).as("the structured error says what the text says").containsEntry("error", text(result));
        return failure;
    }

    private McpSchema.CallToolResult failed(String tool, Map<String, Object> arguments) {
        McpSchema.CallToolResult result = call(tool, arguments);
        if (!Boolean.TRUE.equals(result.isError())) {
            throw new AssertionError(tool + " succeeded, but should have failed: " + text(result));
        }
        return result;
    }

    static String text(McpSchema.CallToolResult result) {
        return result.content().stream().filter(McpSchema.TextContent.class::isInstance).map(c -> ((McpSchema.TextContent) c).text())
                .reduce("", String::concat);
    }

    @Override
    public void close() {
        client.closeGracefully();
    }
}
