package io.sandboxfactory.cli.mcp;

import io.sandboxfactory.core.session.Redaction;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.sandboxfactory.cli.output.ErrorReporter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/**
 * Serves tools over MCP on a pair of streams until the client closes its end. Every failure of a
 * tool becomes a tool result with {@code isError} and the one sentence the CLI would print; no
 * exception reaches the protocol layer, so a client never sees a protocol error or a stack trace.
 */
public final class McpServerRunner {

    private static final Logger LOG = LoggerFactory.getLogger(McpServerRunner.class);

    private final ObjectMapper json = new ObjectMapper();
    private final List<McpTool> tools;
    private final String version;
    private final Redaction redaction;

    /** @param redaction what every tool result and error is masked with before it reaches the client */
    public McpServerRunner(List<McpTool> tools, String version, Redaction redaction) {
        this.tools = List.copyOf(tools);
        this.version = version;
        this.redaction = redaction;
    }

    /**
     * Serves until {@code in} ends (the client closed it) or this thread is interrupted (the process
     * was asked to end: Ctrl-C, SIGTERM), then finishes and returns; the interrupt is consumed here,
     * as serving to the end is all it asks.
     */
    public void serve(InputStream in, OutputStream out) {
        CountDownLatch ended = new CountDownLatch(1);
        StdioServerTransportProvider transport = new StdioServerTransportProvider(new JacksonMcpJsonMapper(json),
                new EndSignalling(in, ended), out);
        McpSyncServer server = McpServer.sync(transport)
                .serverInfo("sandbox-factory", version)
                .instructions("Each session is an isolated sandbox with a Git checkout of its own branch. Open one with session_open,"
                        + " work in it with session_exec and the file_* tools (paths are relative to the checkout), review with"
                        + " session_diff and session_log, and end it with session_retire.")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                // Our own argument checks word the refusal; the SDK's would answer with its own text.
                .validateToolInputs(false)
                .tools(tools.stream().map(this::specification).toList())
                .build();
        try {
            ended.await();
        } catch (InterruptedException askedToEnd) {
            // Closing below is the answer, as when the client goes away; the flag stays clear so it can finish.
        } finally {
            server.closeGracefully();
        }
    }

    private McpServerFeatures.SyncToolSpecification specification(McpTool tool) {
        McpSchema.Tool described = McpSchema.Tool.builder().name(tool.name()).description(tool.description())
                .inputSchema(tool.schema().build()).build();
        return McpServerFeatures.SyncToolSpecification.builder().tool(described)
                .callHandler((exchange, request) -> call(tool, exchange, request)).build();
    }

    private McpSchema.CallToolResult call(McpTool tool, io.modelcontextprotocol.server.McpSyncServerExchange exchange,
                                          McpSchema.CallToolRequest request) {
        try {
            Optional<Object> progress = Optional.ofNullable(request.meta()).map(meta -> meta.get("progressToken"));
            McpArguments arguments = new McpArguments(tool.name(), request.arguments(), tool.schema().names());
            McpTool.McpReply reply = tool.handler().call(new McpTool.Call(arguments, exchange, progress));
            Map<String, Object> document = redacted(reply.document());
            return McpSchema.CallToolResult.builder()
                    .addTextContent(redaction.apply(reply.text().orElseGet(() -> pretty(document))))
                    .structuredContent(document)
                    .isError(false).build();
        } catch (RuntimeException e) {
            LOG.debug("Tool {} failed", tool.name(), e);
            return McpSchema.CallToolResult.builder().addTextContent(redaction.apply(ErrorReporter.message(e)))
                    .structuredContent(redacted(ErrorReporter.document(e))).isError(true).build();
        }
    }

    /** {@code document} with every string in it masked, however deep. */
    @SuppressWarnings("unchecked")
    private Map<String, Object> redacted(Map<String, Object> document) {
        return (Map<String, Object>) redactedValue(document);
    }

    private Object redactedValue(Object value) {
        if (value instanceof String text) {
            return redaction.apply(text);
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> copy = new LinkedHashMap<>();
            map.forEach((key, item) -> copy.put(key, redactedValue(item)));
            return copy;
        }
        if (value instanceof List<?> list) {
            return list.stream().map(this::redactedValue).toList();
        }
        return value;
    }

    private String pretty(Map<String, Object> document) {
        try {
            return json.copy().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(document);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Could not write a tool result as JSON: " + e.getMessage(), e);
        }
    }

    /** Counts {@code ended} down when the stream ends or fails: the client has gone. */
    private static final class EndSignalling extends FilterInputStream {
        private final CountDownLatch ended;

        EndSignalling(InputStream in, CountDownLatch ended) {
            super(in);
            this.ended = ended;
        }

        @Override
        public int read() throws IOException {
            return signalled(guarded(super::read));
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return signalled(guarded(() -> super.read(b, off, len)));
        }

        private int guarded(IoRead read) throws IOException {
            try {
                return read.get();
            } catch (IOException e) {
                ended.countDown();
                throw e;
            }
        }

        private int signalled(int n) {
            if (n < 0) {
                ended.countDown();
            }
            return n;
        }

        @FunctionalInterface
        private interface IoRead {
            int get() throws IOException;
        }
    }
}
