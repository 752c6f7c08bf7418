package io.sandboxfactory.cli.command;

import io.sandboxfactory.core.session.Redaction;
import io.sandboxfactory.cli.ExitCodes;
import io.sandboxfactory.cli.FactoryCommand;
import io.sandboxfactory.cli.FactoryLauncher;
import io.sandboxfactory.cli.Main;
import io.sandboxfactory.cli.mcp.McpFileTools;
import io.sandboxfactory.cli.mcp.McpServerRunner;
import io.sandboxfactory.cli.mcp.McpSessionTools;
import io.sandboxfactory.cli.mcp.McpTool;
import io.sandboxfactory.cli.output.Console;
import io.sandboxfactory.cli.session.OtherProviders;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionListener;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code factory mcp}: the session operations as MCP tools on stdio, for AI agents. One factory
 * serves every call until the client closes stdin; the sessions are the factory's ordinary ones.
 */
@Command(mixinStandardHelpOptions = true, name = "mcp",
        description = {"Serve sessions to an AI agent as MCP tools on stdin/stdout (Model Context Protocol):",
                "session_open, session_exec, session_status, session_list, session_diff, session_log, session_retire,",
                "file_read, file_write, file_edit, file_list, file_delete. Ends when the client closes stdin.",
                "Only protocol messages go to stdout; the log goes to stderr."},
        footerHeading = "%nClient config (e.g. .mcp.json):%n",
        footer = {"  {\"mcpServers\": {\"factory\": {\"command\": \"./factory\", \"args\": [\"mcp\"]}}}"})
public final class McpCommand implements Callable<Integer> {

    @ParentCommand
    FactoryCommand root;

    @Override
    public Integer call() {
        Console console = root.console;
        PrintStream protocol = console.out();
        // Anything else printing to stdout (a library, a stray println) would corrupt the client's
        // stream of messages: from here on this process's stdout is its stderr.
        System.setOut(console.err());
        FactoryLauncher launcher = new FactoryLauncher(console, root.global);
        try (SandboxFactory factory = launcher.open(SessionListener.NONE, "mcp")) {
            Redaction redaction = console.redaction();
            List<McpTool> tools = new ArrayList<>(new McpSessionTools(factory, console.workingDirectory(), OtherProviders.of(launcher),
                    redaction).tools());
            tools.addAll(new McpFileTools(factory).tools());
            new McpServerRunner(tools, version(), redaction).serve(System.in, protocol);
        }
        return ExitCodes.OK;
    }

    private static String version() {
        String version = Main.class.getPackage().getImplementationVersion();
        return version == null ? "development" : version;
    }
}
