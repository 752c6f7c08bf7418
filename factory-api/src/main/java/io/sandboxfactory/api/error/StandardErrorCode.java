package io.sandboxfactory.api.error;

/**
 * The codes of the framework itself: the sandbox contract, building a factory, sessions, and the
 * provider lifecycle failures every provider may raise ({@code CREATE_FAILED}, {@code
 * DESTROY_FAILED}, ...). A provider, a store or the CLI defines the codes only it raises in an enum
 * of its own implementing {@link ErrorCodeSupplier}, as Trino's plugins do; discovery checks that
 * no two modules spell a code alike. {@code docs/errors.md} is generated from all of them.
 *
 * @since 0.1.0
 */
public enum StandardErrorCode implements ErrorCodeSupplier {
    // The sandbox contract (factory-api)
    SANDBOX_ERROR(ErrorKind.SANDBOX,
            "A sandbox operation failed without a more specific code. "
            + "Read the message; it carries the provider's words."),
    START_FAILED(ErrorKind.SANDBOX,
            "The provider could not start the sandbox (container, pod or directory). Read the cause in the "
            + "message; check the provider's engine and config; `start` again."),
    START_HOOK_FAILED(ErrorKind.SANDBOX,
            "A start hook failed (materializing the repository, setup); the sandbox is in ERROR. Fix what the"
            + " hook's message names; the next `start()` retries."),
    INTERRUPTED(ErrorKind.INFRASTRUCTURE,
            "The calling thread was interrupted while waiting (a command, a start, a lease). Nothing to fix "
            + "in the input; retry when the caller is not being shut down."),
    DESTROYED(ErrorKind.SANDBOX,
            "The sandbox is gone: destroyed, or removed from outside (a deleted container or directory). Open"
            + " the session again; the framework revives sessions whose sandbox vanished."),
    NOT_READY(ErrorKind.SANDBOX,
            "The sandbox is stopped or stopping and cannot serve the request. Start it (or reopen the "
            + "session) first."),
    TIMEOUT(ErrorKind.SANDBOX,
            "An operation on the sandbox (not a command) did not finish in time. Raise the timeout or check "
            + "why the sandbox is slow."),
    EXEC_TRANSPORT(ErrorKind.INFRASTRUCTURE,
            "The transport to the sandbox broke while running a command (`opened()` says whether it may have "
            + "run). Check the engine or cluster connection; replay only when `opened()` is false."),
    CWD_MISSING(ErrorKind.SANDBOX,
            "A command's working directory does not exist in the sandbox. Give a directory that exists; a "
            + "session whose checkout vanished is rebuilt on its next open."),
    FILE_NOT_FOUND(ErrorKind.BAD_INPUT,
            "Nothing exists at the path a file operation was given. Give a path that exists (`factory ls` "
            + "shows them)."),
    NOT_A_DIRECTORY(ErrorKind.BAD_INPUT,
            "A directory was expected at the path, but something else is there. Give a directory."),
    IS_A_DIRECTORY(ErrorKind.BAD_INPUT,
            "A file was expected at the path, but a directory is there. Give a file, or use the recursive "
            + "form of the operation."),
    NOT_A_REGULAR_FILE(ErrorKind.BAD_INPUT,
            "A regular file was expected, but a device, socket or FIFO is there. Give a regular file."),
    DIRECTORY_NOT_EMPTY(ErrorKind.BAD_INPUT,
            "A non-recursive delete met a directory with entries. Delete recursively, or empty the directory "
            + "first."),
    PATH_OUTSIDE_ROOT(ErrorKind.BAD_INPUT,
            "A path is absolute, holds `..`, or resolves through a link outside the root it is confined to. "
            + "Give a path relative to the root that stays inside it."),
    FILE_CHANGED(ErrorKind.SANDBOX,
            "The path changed under the operation (a parent was replaced while a file was written, or a "
            + "directory was swapped for a link while the local provider walked it; nothing outside the root "
            + "was touched). Retry once whatever changes the files has finished."),
    FILE_OPERATION_FAILED(ErrorKind.SANDBOX,
            "A file operation failed in the sandbox for another reason (permissions, a full disk). Read the "
            + "sandbox's words in the message."),
    INVALID_ARGUMENT(ErrorKind.BAD_INPUT,
            "An argument broke a rule of the API (a timeout, a size, an environment variable name, a template"
            + " name...). Change the value the message names as its rule says."),
    INVALID_SESSION_ID(ErrorKind.BAD_INPUT,
            "A session id is empty, too long, or holds characters the rule forbids. Give an id of 1-200 "
            + "characters (at most 255 bytes of UTF-8) that the rule in the message accepts."),

    // Building the factory: config, discovery, the provider's open
    INVALID_CONFIG(ErrorKind.BAD_INPUT,
            "A configuration value, key or file is invalid (every message names the key and the file or "
            + "variable; a file that is no valid YAML or JSON, its line, column and that line's text). Docker: "
            + "also a `runtime` the engine does not know (the message lists the engine's runtimes; raised at "
            + "the first start, before anything is created), and a template build with `readOnlyRootFilesystem:"
            + " true`. Fix the key in the file or variable the message names; `factory config` shows the "
            + "effective values."),
    UNKNOWN_PROVIDER(ErrorKind.BAD_INPUT,
            "The selected provider is not among the discovered ones. Pick one that `factory providers` lists,"
            + " or add its jar to the plugin directory."),
    PROVIDER_DISCOVERY_FAILED(ErrorKind.BAD_INPUT,
            "A provider jar is broken, or two providers have the same name. Remove or fix the jar the message"
            + " names."),
    STATE_DIRECTORY_FAILED(ErrorKind.BAD_INPUT,
            "The state directory cannot be created or written. Point `stateDir` (`FACTORY_STATE_DIR`) at a "
            + "writable directory."),
    UNKNOWN_STORE(ErrorKind.BAD_INPUT,
            "`store.type` names no discovered session store. Use `sqlite` or `postgres` (with store-postgres "
            + "on the class path)."),
    STORE_DISCOVERY_FAILED(ErrorKind.BAD_INPUT,
            "A session store jar is broken. Remove or fix the jar the message names."),
    PROVIDER_OPEN_FAILED(ErrorKind.INFRASTRUCTURE,
            "The provider's `open()` failed without a code of its own, or returned something invalid. The "
            + "local provider with `isolation: namespaces` set explicitly where bubblewrap does not work: "
            + "\"providers.local.isolation is 'namespaces', but /usr/bin/bwrap is missing or cannot make "
            + "namespaces here: install the 'bubblewrap' package (or set providers.local.isolation to 'none').\""
            + " Read the provider's message; a provider's own code (e.g. `DOCKER_UNAVAILABLE`) is reported "
            + "instead when it has one. For the local provider: `apt-get install bubblewrap`, or `isolation: "
            + "none`."),

    // Sessions (factory-core)
    INVALID_REF(ErrorKind.BAD_INPUT,
            "A branch or base name is not a valid git branch name. Give a name `git check-ref-format "
            + "--branch` accepts."),
    INVALID_REPOSITORY(ErrorKind.BAD_INPUT,
            "A repository is neither `owner/name`, a URL nor an allowed local path, holds credentials, or "
            + "differs from the session's. Give a valid repository; pass tokens through the environment, never "
            + "in the URL."),
    INVALID_LABEL(ErrorKind.BAD_INPUT,
            "A label is not `key=value` or its key or value breaks the label rule. Follow the rule the "
            + "message gives."),
    INVALID_PATH(ErrorKind.BAD_INPUT,
            "A path argument is malformed (NUL, not absolute where it must be, the root itself, a missing "
            + "host path). Give a path that fits the rule in the message."),
    SESSION_NOT_OPEN(ErrorKind.BAD_INPUT,
            "The operation needs the session to be open in this factory. Open the session first."),
    SESSION_RETIRED(ErrorKind.SANDBOX,
            "The session was retired while an open or start was under way. Open it again (it starts fresh) or"
            + " use another session id."),
    PROVIDER_CONTRACT(ErrorKind.INFRASTRUCTURE,
            "A provider returned something its contract forbids (a sandbox of another id, null). A provider "
            + "bug: report it to the provider's author."),
    PROBE_FAILED(ErrorKind.SANDBOX,
            "Probing the sandbox workspace (its shell, `pwd`, directories) failed, or did not answer within "
            + "`timeouts.probe` (default 1 min). Check that the image has `/bin/sh`; read the probe's output in"
            + " the message; for a slow or overloaded sandbox raise `timeouts.probe`."),
    WORKDIR_UNKNOWN(ErrorKind.SANDBOX,
            "The sandbox's working directory could not be determined from `pwd`. Check the image's shell and "
            + "working directory."),
    ROOT_MISSING(ErrorKind.SANDBOX,
            "The root of a file operation (the checkout) does not exist in the sandbox. Reopen the session; "
            + "its checkout is rebuilt."),
    NOT_MATERIALIZED(ErrorKind.SANDBOX,
            "A passive read of a session whose sandbox is not running in this process. Open the session "
            + "first."),
    SWEEP_UNSUPPORTED(ErrorKind.SANDBOX,
            "The provider cannot list its sandboxes, so orphans cannot be swept. Use a provider with "
            + "INVENTORY, or clean up by hand."),
    GIT_MISSING(ErrorKind.SANDBOX,
            "`git --version` failed inside the sandbox. Use an image with git."),
    EGRESS_BLOCKED(ErrorKind.INFRASTRUCTURE,
            "The sandbox could not reach the remote (name resolution, connection, timeout). An isolated local"
            + " session has no network by default; the message then ends \"A local session has no network unless"
            + " providers.local.network is host (or providers.local.isolation is none).\" Give the sandbox "
            + "network (`providers.local.network: host`, docker `networkMode`), or give the repository as a "
            + "host path (the session sees it read-only)."),
    GATEWAY_UNAVAILABLE(ErrorKind.BAD_INPUT,
            "A session's repository needs a token, but its sandboxes cannot reach the factory's Git gateway (the "
            + "provider does not show host directories to its sandboxes, or the sandbox was made before the "
            + "gateway's directory was given to it). Use a provider that does, retire the session and open it "
            + "again, or set `repository.exposeToken: true` to give the sandbox the token (unsafe with untrusted code)."),
    CLONE_FAILED(ErrorKind.INFRASTRUCTURE,
            "`git clone` failed for another reason (missing repository, authentication). Check the repository"
            + " and the token (`GH_TOKEN`); the message carries git's words."),
    FETCH_FAILED(ErrorKind.INFRASTRUCTURE,
            "`git fetch` into an existing checkout failed. As for `CLONE_FAILED`; the next open retries."),
    CHECKOUT_CONFLICT(ErrorKind.SANDBOX,
            "The checkout directory holds something that is not this session's checkout; it is left "
            + "untouched. Retire the session with DESTROY, or remove the directory."),
    BRANCH_FAILED(ErrorKind.SANDBOX,
            "The session branch could not be created or checked out (e.g. the base branch is missing). Give a"
            + " base branch that exists in the repository."),
    SETUP_FAILED(ErrorKind.SANDBOX,
            "The setup command exited non-zero; it is skipped for the rest of the session. Fix the setup "
            + "command, or run it by hand; the sandbox stays usable."),
    TEMPLATES_UNSUPPORTED(ErrorKind.SANDBOX,
            "The provider cannot build or use templates. Use the local or docker provider for templates."),
    TEMPLATE_BUILD_FAILED(ErrorKind.SANDBOX,
            "Building a template failed (preparing the checkout, committing the image). Read the message; the"
            + " open goes on without a template."),
    TEMPLATE_REJECTED(ErrorKind.SANDBOX,
            "A template no longer fits the session (its inputs changed). Nothing: the open goes on without "
            + "it; rebuild templates with `factory template build`."),
    SESSION_STORE(ErrorKind.INFRASTRUCTURE,
            "The session store could not be read or written. Check the database (the file, or the PostgreSQL "
            + "server and `store.*`)."),
    LEASE_LOST(ErrorKind.INFRASTRUCTURE,
            "A fenced write was refused: another owner took the session's lease after this one's expired. "
            + "Nothing to repair: the newer owner's state stands; retry the operation."),

    // A provider's lifecycle: codes more than one provider raises
    PROVIDER_CLOSED(ErrorKind.BAD_INPUT,
            "A sandbox, a listing or a removal was used after its provider instance (its factory) was closed;"
            + " a command refused so also reports `EXEC_TRANSPORT` with `opened=false`. Use a factory's "
            + "sandboxes only until the factory is closed; build a new factory."),
    CREATE_FAILED(ErrorKind.INFRASTRUCTURE,
            "The engine or cluster refused to create the container, pod or claim (docker: also when the new "
            + "container's working directory could not be given to its `user`; the container is removed again)."
            + " Read the engine's words in the message."),
    STOP_FAILED(ErrorKind.INFRASTRUCTURE,
            "Stopping the sandbox failed. Read the message; retry the stop."),
    DESTROY_FAILED(ErrorKind.INFRASTRUCTURE,
            "Removing the sandbox failed. Read the message; retry, or remove the container or pod by hand."),
    LIST_FAILED(ErrorKind.INFRASTRUCTURE,
            "Listing the provider's sandboxes or templates failed. Check the engine or cluster connection."),
    REMOVE_FAILED(ErrorKind.INFRASTRUCTURE,
            "Removing a listed sandbox or template failed. Read the message; retry.");

    private final ErrorCode code;

    StandardErrorCode(ErrorKind kind, String meaning) {
        this.code = new ErrorCode(name(), kind, meaning);
    }

    @Override
    public ErrorCode toErrorCode() {
        return code;
    }
}
