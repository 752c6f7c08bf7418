package io.sandboxfactory.cli.mcp;

import io.sandboxfactory.core.session.RedactedStream;
import io.sandboxfactory.core.session.Redaction;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.cli.BadInputException;
import io.sandboxfactory.cli.output.PhaseReporter;
import io.sandboxfactory.cli.session.CommandRunner;
import io.sandboxfactory.cli.session.OtherProviders;
import io.sandboxfactory.cli.session.SessionStates;
import io.sandboxfactory.cli.session.SessionDiff;
import io.sandboxfactory.cli.session.SessionJournal;
import io.sandboxfactory.cli.session.SessionJson;
import io.sandboxfactory.cli.session.SessionEgress;
import io.sandboxfactory.cli.session.SessionOptions;
import io.sandboxfactory.cli.session.StoredSessions;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.config.DurationFormat;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.retire.RetireResult;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.StartMode;
import io.sandboxfactory.store.api.SessionRecord;

import static io.sandboxfactory.cli.session.StoredSessions.Audience.MCP;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The session tools of {@code factory mcp}: open, exec, status, list, diff and retire. Each goes
 * through the code the matching CLI command uses, so validation, confinement and messages are the
 * CLI's.
 */
public final class McpSessionTools {

    /** How much of each stream a {@code session_exec} result keeps (the newest output). */
    public static final long EXEC_TAIL_BYTES = 32 * 1024;
    /** How much of a patch a {@code session_diff} result carries (the start). */
    static final int DIFF_PATCH_CHARS = 256 * 1024;

    private static final String ID = "Session id, e.g. fix-42: 1-200 characters, no '/' or '\\', not starting with '.' or '-'.";

    private final SandboxFactory factory;
    private final Path workingDirectory;
    private final OtherProviders otherProviders;
    private final Redaction redaction;

    /**
     * @param otherProviders how session_status and session_list ask the provider of a session of another provider
     * @param redaction what a command's output streamed as progress is masked with (results are masked whole by the server)
     */
    public McpSessionTools(SandboxFactory factory, Path workingDirectory, OtherProviders otherProviders, Redaction redaction) {
        this.factory = factory;
        this.workingDirectory = workingDirectory;
        this.otherProviders = otherProviders;
        this.redaction = redaction;
    }

    public List<McpTool> tools() {
        return List.of(open(), exec(), status(), list(), diff(), log(), egress(), retire());
    }

    private McpTool open() {
        ToolSchema repoItem = ToolSchema.object()
                .string("repo", true, "Repository: owner/name, a clone URL, or a local path.")
                .string("dir", false, "Its checkout directory in the workspace (default: its name).")
                .strings("setup", "Setup commands run once in its checkout.")
                .strings("teardown", "Teardown commands run in its checkout on retire.");
        ToolSchema schema = ToolSchema.object()
                .string("id", true, ID)
                .string("branch", true, "The session branch; created from the base when new.")
                .string("repo", false, "Repository: owner/name, a clone URL, or a local path (relative to where factory mcp runs).")
                .objects("repos", repoItem, "Instead of repo: several repositories side by side (an environment).")
                .string("environment", false, "Instead of repo: an environment named in the factory config.")
                .string("base", false, "Base branch of a new session branch (default: the repository's default branch).")
                .strings("setup", "With repo: setup commands, run once per sandbox in the checkout (e.g. 'npm ci').")
                .strings("teardown", "With repo: teardown commands, run when the session is retired.")
                .strings("workspace_setup", "With repos: commands run at the workspace root after every repository's setup.")
                .strings("workspace_teardown", "With repos: commands run at the workspace root on retire.")
                .strings("setup_secrets", "Names of variables of the factory's environment the setup commands get, and no later command"
                        + "; the names are kept with the session (default: the names it keeps, else the configured setupSecrets).")
                .stringMap("labels", "Labels to find the session by, e.g. {\"task\": \"1234\"}.")
                .strings("egress_allow", "Hosts the session may reach when the factory's egress mode is allowlist: host, *.domain,"
                        + " either with :port.");
        return new McpTool("session_open", "Open (or reopen) a session: an isolated sandbox with a Git checkout of its own branch,"
                + " cloned, checked out and set up once. Opening an open session again reconnects to it. Returns the checkout path.",
                schema, call -> {
                    McpArguments args = call.arguments();
                    SessionOptions options = new SessionOptions();
                    options.branch = args.string("branch");
                    options.base = args.optionalString("base").orElse(null);
                    options.environment = args.optionalString("environment").orElse(null);
                    args.stringMap("labels").forEach((k, v) -> {
                        if (k.contains("=")) {
                            throw new BadInputException("Label key '" + k + "' of session_open contains '='; a key is the part before '='.");
                        }
                        options.labels.add(k + "=" + v);
                    });
                    options.workspaceSetup.addAll(args.strings("workspace_setup"));
                    options.workspaceTeardown.addAll(args.strings("workspace_teardown"));
                    options.setupSecrets.addAll(args.strings("setup_secrets"));
                    options.egressAllow.addAll(args.strings("egress_allow"));
                    Optional<String> repo = args.optionalString("repo");
                    List<McpArguments> repos = args.objects("repos", repoItem.names());
                    if (repo.isPresent() && !repos.isEmpty()) {
                        throw new BadInputException("Give session_open either 'repo' or 'repos', not both.");
                    }
                    if (repo.isPresent()) {
                        options.repos.add(group(repo.get(), Optional.empty(), args.strings("setup"), args.strings("teardown")));
                    } else if (!args.strings("setup").isEmpty() || !args.strings("teardown").isEmpty()) {
                        throw new BadInputException("'setup' and 'teardown' of session_open belong to 'repo'; with 'repos' give them per repository.");
                    }
                    for (McpArguments item : repos) {
                        options.repos.add(group(item.string("repo"), item.optionalString("dir"), item.strings("setup"), item.strings("teardown")));
                    }
                    var spec = options.spec(args.string("id"), workingDirectory, StartMode.EAGER, factory);
                    SessionHandle handle = factory.openSession(spec);
                    return McpTool.McpReply.of(SessionJson.describe(factory, handle, new PhaseReporter(System.err, true), null));
                });
    }

    private static SessionOptions.RepoGroup group(String repo, Optional<String> dir, List<String> setup, List<String> teardown) {
        SessionOptions.RepoGroup group = new SessionOptions.RepoGroup();
        group.repo = repo;
        group.dir = dir.orElse(null);
        group.setup = new ArrayList<>(setup);
        group.teardown = new ArrayList<>(teardown);
        return group;
    }

    private McpTool exec() {
        ToolSchema schema = ToolSchema.object()
                .string("id", true, ID)
                .string("command", true, "A shell command line, run with sh -c in the checkout (e.g. 'npm test 2>&1 | tail -50').")
                .string("workdir", false, "Where to run it, relative to the checkout (an environment: to the workspace root). Default: the checkout.")
                .string("timeout", false, "Kill the command after this long, e.g. 30s or 10m (exit code 124). Default: the configured command timeout.");
        return new McpTool("session_exec", "Run a shell command in a session's checkout with the session's environment. Returns the exit code"
                + " and the last " + EXEC_TAIL_BYTES / 1024 + " KiB of stdout and stderr (flags say when older output was dropped);"
                + " a non-zero exit code is a result, not a tool error. With a progress token, output is streamed as progress"
                + " notifications while the command runs.",
                schema, call -> {
                    McpArguments args = call.arguments();
                    String command = args.string("command");
                    Optional<String> workdir = args.optionalString("workdir");
                    Duration timeout = args.optionalString("timeout").map(DurationFormat::parse)
                            .or(() -> factory.config().timeouts().command()).orElse(null);
                    SessionHandle handle = StoredSessions.resume(factory, args.string("id"), MCP);
                    // The session's own secrets (its token, variables named like secrets) too, for the stream and the result.
                    Redaction secrets = redaction.and(Redaction.ofEnvironment(handle.sandbox().getEnv()));
                    RedactedStream stdout = null;
                    RedactedStream stderr = null;
                    if (call.progressToken().isPresent()) {
                        // Masked as a stream: a secret split across two chunks is masked whole.
                        Progress progress = new Progress(call);
                        stdout = secrets.streamTo(progress::stdout);
                        stderr = secrets.streamTo(progress::stderr);
                    }
                    CommandResult result;
                    try {
                        result = CommandRunner.run(handle, List.of("sh", "-c", command), timeout, workdir,
                                new CommandRunner.Output(stdout, stderr, EXEC_TAIL_BYTES));
                    } finally {
                        if (stdout != null) {
                            stdout.flush();
                            stderr.flush();
                        }
                    }
                    Map<String, Object> doc = new LinkedHashMap<>();
                    doc.put("session", handle.sessionId());
                    doc.put("exitCode", result.exitCode());
                    doc.put("timedOut", result.timedOut());
                    if (result.timedOut() && timeout != null) {
                        doc.put("message", CommandRunner.timedOutMessage(timeout, result.exitCode()).substring("factory: ".length()));
                    }
                    doc.put("durationMillis", result.executionTime().toMillis());
                    doc.put("stdout", secrets.apply(result.stdout()));
                    doc.put("stderr", secrets.apply(result.stderr()));
                    doc.put("stdoutTruncated", result.stdoutTruncated());
                    doc.put("stderrTruncated", result.stderrTruncated());
                    return McpTool.McpReply.of(doc);
                });
    }

    /** Sends a command's output (masked by the caller) as progress notifications, in order, numbered. */
    private static final class Progress {
        private final McpTool.Call call;
        private final AtomicLong sent = new AtomicLong();

        Progress(McpTool.Call call) {
            this.call = call;
        }

        void stdout(String chunk) {
            send(chunk, "stdout");
        }

        void stderr(String chunk) {
            send(chunk, "stderr");
        }

        // One at a time: the two streams arrive on threads of their own, and progress must increase.
        private synchronized void send(String chunk, String stream) {
            call.exchange().progressNotification(new ProgressNotification(call.progressToken().get(),
                    (double) sent.incrementAndGet(), null, chunk, Map.of("stream", stream)));
        }
    }

    private McpTool status() {
        return new McpTool("session_status", "Show one session: provider, sandbox state, repository, branch and base, labels,"
                + " how the checkout stands against its upstream, created and last-used times.",
                ToolSchema.object().string("id", true, ID), call -> {
                    SessionRecord record = StoredSessions.record(factory, call.arguments().string("id"), MCP);
                    try (SessionStates states = new SessionStates(factory, otherProviders)) {
                        Map<String, Object> doc = states.describe(record);
                        doc.put("egress", SessionEgress.document(factory.egress(record.sessionId())));
                        return McpTool.McpReply.of(doc);
                    }
                });
    }

    private McpTool list() {
        return new McpTool("session_list", "List every session the factory knows (opened by any agent or by the factory command).",
                ToolSchema.object(), call -> {
                    List<Map<String, Object>> rows = new ArrayList<>();
                    try (SessionStates states = new SessionStates(factory, otherProviders)) {
                        for (SessionRecord record : factory.sessionStore().list()) {
                            rows.add(states.describe(record));
                        }
                    }
                    return McpTool.McpReply.of(Map.of("sessions", rows));
                });
    }

    private McpTool diff() {
        ToolSchema schema = ToolSchema.object()
                .string("id", true, ID)
                .bool("stat", "Only the changed files with their added and deleted line counts, no patch.");
        return new McpTool("session_diff", "What the session changed against its base branch: committed and uncommitted changes since"
                + " the merge base, as a unified patch (the first " + DIFF_PATCH_CHARS / 1024 + " KiB), the changed files with line"
                + " counts, and the untracked files; per repository for an environment.",
                schema, call -> {
                    McpArguments args = call.arguments();
                    boolean stat = args.flag("stat");
                    SessionRecord record = StoredSessions.record(factory, args.string("id"), MCP);
                    SessionHandle handle = StoredSessions.resume(factory, record, MCP);
                    Optional<SessionDiff.HeadText> patch = stat ? Optional.empty() : Optional.of(new SessionDiff.HeadText(DIFF_PATCH_CHARS));
                    List<SessionDiff.Checkout> checkouts = new SessionDiff(handle, record).checkouts(patch.<Consumer<String>>map(p -> p));
                    return McpTool.McpReply.of(SessionDiff.json(handle.sessionId(), checkouts, patch));
                });
    }

    private McpTool log() {
        ToolSchema schema = ToolSchema.object()
                .string("id", true, ID)
                .integer("limit", "How many of the newest commands to return (default " + SessionJournal.DEFAULT_ENTRIES + ").");
        return new McpTool("session_log", "The commands run in a session, oldest first (any client's, setup and teardown included):"
                + " start time, duration, origin, command line, exit code, timed out, and the last 4 KiB of each stream.",
                schema, call -> {
                    McpArguments args = call.arguments();
                    String id = args.string("id");
                    int limit = (int) Math.min(args.number("limit", SessionJournal.DEFAULT_ENTRIES, 1), Integer.MAX_VALUE);
                    return McpTool.McpReply.of(SessionJournal.document(id, SessionJournal.journal(factory, id, limit, MCP)));
                });
    }

    private McpTool egress() {
        ToolSchema schema = ToolSchema.object()
                .string("id", true, ID)
                .strings("allow", "Host patterns to allow: host, *.domain, either with :port.")
                .strings("deny", "Host patterns to deny, even under a wider allow.");
        return new McpTool("session_egress", "Show a session's egress rules (mode, allowed and denied hosts), or change them with allow"
                + " and deny: the next connection of its sandboxes follows, without a restart, and the session keeps the change."
                + " Rules apply when the factory's egress mode is allowlist.",
                schema, call -> {
                    McpArguments args = call.arguments();
                    String id = args.string("id");
                    StoredSessions.record(factory, id, MCP);
                    List<String> allow = args.strings("allow");
                    List<String> deny = args.strings("deny");
                    if (!allow.isEmpty() || !deny.isEmpty()) {
                        factory.changeEgress(id, allow, deny);
                    }
                    return McpTool.McpReply.of(SessionEgress.describe(factory, id));
                });
    }

    private McpTool retire() {
        ToolSchema schema = ToolSchema.object()
                .string("id", true, ID)
                .bool("delete", "Destroy the sandbox with its files and forget the session (default: stop it, files kept).");
        return new McpTool("session_retire", "Retire a session: run its teardown, then stop its sandbox (files kept) or, with delete,"
                + " destroy it. An unknown id is no error (outcome unknown).",
                schema, call -> {
                    McpArguments args = call.arguments();
                    String id = args.string("id");
                    RetireMode mode = args.flag("delete") ? RetireMode.DESTROY : RetireMode.STOP;
                    io.sandboxfactory.core.session.SessionSpec.requireValidSessionId(id);
                    factory.sessionStore().find(id).ifPresent(record -> StoredSessions.requireSameProvider(factory, record, MCP));
                    RetireResult result = factory.retire(id, mode);
                    if (result.failed()) {
                        throw new IllegalStateException(result.describe());
                    }
                    Map<String, Object> doc = SessionJson.retirement(result);
                    doc.put("mode", mode.name().toLowerCase(java.util.Locale.ROOT));
                    doc.put("message", result.describe());
                    return McpTool.McpReply.of(doc);
                });
    }
}
