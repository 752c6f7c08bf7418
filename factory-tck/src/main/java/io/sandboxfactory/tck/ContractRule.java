package io.sandboxfactory.tck;

import io.sandboxfactory.api.SandboxProvider;
import org.opentest4j.AssertionFailedError;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * The rules the kit checks. Every failure names its rule, says what happened and what to fix:
 * {@code Rule 'id-keyed get-or-create' broken: <what happened>. <what to fix>}.
 */
enum ContractRule {

    PROVIDER_NAME("provider name",
            "Return a name matching [a-z][a-z0-9-]* from SandboxProvider.name()."),
    DISCOVERABLE("discoverable through ServiceLoader",
            "List the provider class in src/main/resources/META-INF/services/io.sandboxfactory.api.SandboxProvider and give it a public no-argument constructor."),
    SANDBOX_ID_IS_SESSION_ID("sandbox id is the session id",
            "Pass ctx.sessionId() as the id to the MastraSandbox constructor."),
    CREATE_SIDE_EFFECT_FREE("create is cheap and side-effect free",
            "Provision nothing in FactorySandbox.create(ctx) or in the sandbox constructor: MastraSandbox calls find(), connect() and create() when start() runs."),
    ID_KEYED("id-keyed get-or-create",
            "Make find() locate the sandbox created for the same session id (derive its name or path from the session id), so every instance for one session reaches one physical sandbox."),
    SESSION_ISOLATION("one sandbox per session",
            "Derive the physical sandbox from the session id, so that two sessions never share one."),
    FILES_KEPT("files survive stop",
            "Keep the sandbox's storage in doStop() (stop its processes, not its files), or stop declaring FILES_SURVIVE_STOP."),
    RECONNECT("reconnect across processes",
            "Make find() locate the sandbox from the session id (or ctx.sandboxId()) alone, with no state kept in the FactorySandbox instance, or stop declaring RECONNECT_ACROSS_PROCESSES."),
    START_SINGLE_FLIGHT("start is single-flight",
            "Leave start() to MastraSandbox and do not override ensureRunning(): concurrent callers must join one start."),
    START_HOOKS("start hooks wrap in order and may run commands",
            "Leave the hook chain to MastraSandbox, and let doExecute() run while the sandbox is STARTING (the hook runs commands before the sandbox counts as RUNNING)."),
    HOOK_FAILURE("a failing start hook fails the start and is retried",
            "Leave start() to MastraSandbox: a hook failure must surface as SandboxStartHookException, leave status ERROR, and the next start() must run the hook again."),
    EXIT_CODES("exit codes",
            "Return the command's own exit status in CommandResult.exitCode(); a non-zero exit is a result, not an exception."),
    OUTPUT_STREAMS("stdout and stderr are separate",
            "Collect the command's stdout and stderr separately, each into its own CommandResult field."),
    STREAMING("output streams while the command runs",
            "Call request.onStdout()/onStderr() with each chunk as it arrives (OutputCollector does this), not once at the end, and let a second command run meanwhile."),
    OUTPUT_CAP("output is capped at maxRetainedBytes",
            "Retain only the newest request.maxRetainedBytes() bytes of each stream and set the truncation flags (OutputCollector does both); callbacks still see every chunk."),
    ARGUMENT_QUOTING("arguments round-trip verbatim",
            "Run request.commandLine() unchanged with /bin/sh -c (or another POSIX shell): do not split, re-quote or re-encode it, and decode output as UTF-8."),
    CWD("working directory of a command",
            "Run the command in request.cwd() when it is present, and in the sandbox's default directory otherwise."),
    CWD_MISSING("a missing working directory is an error",
            "When request.cwd() does not exist in the sandbox, throw a SandboxException (code CWD_MISSING, as the shipped providers do) instead of running the command elsewhere or returning a result."),
    WORKING_DIRECTORY("workingDirectory() names a directory inside the sandbox",
            "Return from workingDirectory() an absolute path that exists inside the running sandbox, or Optional.empty() to let the framework probe it."),
    ENV_PRECEDENCE("environment precedence",
            "Start from the provider's base environment and put request.env() on top: it already holds the overlay with the per-call values winning."),
    ENV_PER_CALL("environment does not leak between commands",
            "Build a fresh environment for every command from the base environment and request.env(); never keep variables from earlier commands."),
    ENV_VERBATIM("environment values arrive verbatim",
            "Pass request.env() values to the process unchanged (no shell interpolation, no re-encoding)."),
    TIMEOUT("timeouts kill the command",
            "When request.timeout() elapses, kill the command's whole process tree and return exitCode 124 with timedOut=true."),
    STOP("stop is idempotent and keeps the sandbox",
            "Make doStop() tolerate a sandbox that is already stopped, and keep the physical sandbox so a later start() reconnects to it."),
    DESTROY("destroy is idempotent and removes the sandbox",
            "Remove the physical sandbox and everything in it in doDestroy(), tolerate one that is already gone, so a later instance for the session starts from scratch (outcome CREATED)."),
    VANISHED_SANDBOX("a vanished sandbox surfaces as SandboxDestroyedException",
            "In doExecute(), when the physical sandbox is gone (directory deleted, container removed), throw SandboxDestroyedException instead of running the command somewhere else."),
    CAPABILITY_INVENTORY("INVENTORY is declared exactly when the factory lists its sandboxes",
            "Declare SandboxCapability.INVENTORY exactly when the FactorySandbox implements SandboxInventory."),
    CAPABILITY_ATTACH("ATTACH is declared exactly when the sandboxes attach",
            "Declare SandboxCapability.ATTACH exactly when your sandboxes implement AttachableSandbox."),
    ATTACH_NO_SECRET("an attach puts no variable's value on a command line",
            "Give the session's variables to the attach's host process through Attach.environment() (named on its command line, as docker exec -e NAME does) or through the sandbox (a file the shell reads); never a value in Attach.command(), which every user of the host can read."),
    CAPABILITY_STREAMS("STREAMS is declared exactly when the sandboxes open streams",
            "Declare SandboxCapability.STREAMS exactly when your sandboxes implement StreamingSandbox."),
    STREAM_ROUND_TRIP("a stream carries bytes whole and its input ends when closed",
            "In openStream(), deliver what is written to input() to the program's standard input in order and whole, end the program's input when input() is closed (frame it, as provider-support's FramedInput does, when your exec cannot half-close its connection), and end output() once the program has exited; copy what your transport hands you if it may reuse the buffer."),
    INVENTORY_LISTING("inventory lists and removes what the provider made",
            "List every physical sandbox this provider instance made in listSandboxes(), with its session id and the same sandboxId the sandbox reports, and make removeSandbox() delete it (idempotently)."),
    FILE_CONFINEMENT("file tools never reach outside their root, even while a command swaps a directory for a link",
            "Resolve every path of a file operation from the root one component at a time without following links (openat with O_NOFOLLOW, java.nio's SecureDirectoryStream) and act relative to the open parent directory; or run the operation inside the sandbox's isolation, where nothing outside it is visible. When your FileTransferSandbox works outside the isolation (on the host), implement FileOperationsSandbox so that no path is resolved by a command there."),
    CONFIG_BINDS("the config type binds from a config file",
            "Make the config type a record (or another Jackson-bindable type) of plain values (strings, numbers, booleans, lists, maps) that supplies defaults for absent fields: the framework binds the providers.<name> section to it."),
    SESSION_MATERIALIZE("a session materializes its repository on the provider",
            "The session machinery drives git and a POSIX shell through executeCommand: install git in the sandbox, honour the cwd of each command, and let the sandbox reach the repository (override ProviderUnderTest.cloneUrl() when it cannot see the host's files)."),
    SESSION_SETUP_ONCE("setup runs at most once per sandbox",
            "Keep a running sandbox's files between commands and starts, and make every instance of a session reach the same sandbox, so the setup marker is found on later starts."),
    SESSION_WARM_RESTART("a warm restart reconnects and skips setup",
            "After stop(), a new factory must reconnect to the same sandbox (find() by session id or ctx.sandboxId()) with its files, so the checkout and setup marker are found and setup is skipped.");

    private final String title;
    private final String fix;

    ContractRule(String title, String fix) {
        this.title = title;
        this.fix = fix;
    }

    String title() {
        return title;
    }

    String fix() {
        return fix;
    }

    /** The failure for this rule: what happened, then the default fix. */
    AssertionFailedError broken(String whatHappened) {
        return broken(whatHappened, null);
    }

    AssertionFailedError broken(String whatHappened, Throwable cause) {
        String happened = sentence(whatHappened);
        return new RuleViolation(this, happened, "Rule '" + title + "' broken: " + happened + " " + fix, cause);
    }

    /** Fails with {@link #broken} unless {@code condition} holds. */
    void require(boolean condition, Supplier<String> whatHappened) {
        if (!condition) {
            throw broken(whatHappened.get());
        }
    }

    /** Fails unless {@code actual} equals {@code expected}; {@code what} names the value in the sentence. */
    void requireEquals(Object expected, Object actual, String what) {
        if (!Objects.equals(expected, actual)) {
            String happened = what + " was " + show(actual) + ", expected " + show(expected) + ".";
            throw new RuleViolation(this, happened, "Rule '" + title + "' broken: " + happened + " " + fix, expected, actual);
        }
    }

    /** Runs {@code step}; an exception from it breaks this rule, with {@code what} saying which step failed. */
    <T> T attempt(String what, ThrowingSupplier<T> step) {
        try {
            return step.get();
        } catch (AssertionFailedError e) {
            throw e;
        } catch (Exception e) {
            throw broken(what + " failed with " + e.getClass().getSimpleName() + ": " + e.getMessage(), e);
        }
    }

    /** Like {@link #attempt(String, ThrowingSupplier)}, for a step without a result. */
    void perform(String what, ThrowingRunnable step) {
        attempt(what, () -> {
            step.run();
            return null;
        });
    }

    private static String show(Object value) {
        return value instanceof String text ? "'" + text.replace("\n", "\\n") + "'" : String.valueOf(value);
    }

    private static String sentence(String text) {
        return text.endsWith(".") ? text : text + ".";
    }

    /** A step that returns a value and may throw. */
    @FunctionalInterface
    interface ThrowingSupplier<T> {
        T get() throws Exception;
    }

    /** A step that may throw. */
    @FunctionalInterface
    interface ThrowingRunnable {
        void run() throws Exception;
    }
}
