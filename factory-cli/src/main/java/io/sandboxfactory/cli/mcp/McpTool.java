package io.sandboxfactory.cli.mcp;

import io.modelcontextprotocol.server.McpSyncServerExchange;

import java.util.Map;
import java.util.Optional;

/**
 * One tool {@code factory mcp} serves: its name, what an agent reads to decide to call it, the
 * schema of its arguments, and what it does.
 */
public record McpTool(String name, String description, ToolSchema schema, Handler handler) {

    /** What a tool does with one call; the map it returns is the result's structured content. */
    @FunctionalInterface
    interface Handler {
        McpReply call(Call call);
    }

    /**
     * One call: its arguments (read against the schema) and, when the client asked for progress,
     * where to send it.
     */
    record Call(McpArguments arguments, McpSyncServerExchange exchange, Optional<Object> progressToken) {
    }

    /**
     * A tool's answer: {@code document} as structured content and, as the text an agent reads, {@code
     * text} (the document as JSON when empty).
     */
    record McpReply(Map<String, Object> document, Optional<String> text) {
        static McpReply of(Map<String, Object> document) {
            return new McpReply(document, Optional.empty());
        }
    }
}
