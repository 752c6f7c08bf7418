package io.sandboxfactory.core.files;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.config.DurationFormat;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.ExecutableSandbox;
import io.sandboxfactory.api.files.PathOutsideRootException;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.files.SandboxFileException;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs {@link FileScripts} in a sandbox for one root and turns their verdicts into exceptions that
 * name the caller's path: one command per call, nothing retained beyond what the call needs.
 */
final class SandboxShell {

    /** A listing or a path fits easily; a streamed read retains nothing. */
    private static final long RETAINED_OUTPUT = 64L * 1024 * 1024;
    private static final int MESSAGE_LIMIT = 600;

    private final ExecutableSandbox sandbox;
    private final SandboxRoot root;
    private final Duration timeout;

    SandboxShell(ExecutableSandbox sandbox, SandboxRoot root, Duration timeout) {
        this.sandbox = sandbox;
        this.root = root;
        this.timeout = timeout;
    }

    SandboxRoot root() {
        return root;
    }

    String sandboxId() {
        return sandbox.id();
    }

    /**
     * Runs {@code body} with {@code args} after the root, the chunk in {@code data} (see {@link
     * ChunkEncoder}) in the environment; returns stdout. {@code verb} and {@code path} word the
     * failures.
     */
    String run(String verb, String path, List<String> args, Map<String, String> data, String... body) {
        CommandResult result = exec(args, data, CommandOptions.builder().maxRetainedBytes(RETAINED_OUTPUT), body);
        if (result.stdoutTruncated()) {
            throw new SandboxFileException(StandardErrorCode.FILE_OPERATION_FAILED, path, "Cannot " + verb + " '" + path + "' in sandbox '"
                    + sandbox.id() + "': its answer is larger than " + RETAINED_OUTPUT + " bytes.");
        }
        check(result, verb, path);
        return result.stdout();
    }

    /** Runs {@code body}, handing stdout to {@code onStdout} as it arrives and retaining none of it. */
    void stream(String verb, String path, List<String> args, Consumer<String> onStdout, String... body) {
        CommandResult result = exec(args, Map.of(), CommandOptions.builder().maxRetainedBytes(0).onStdout(onStdout), body);
        check(result, verb, path);
    }

    /** The exit code and stderr, without turning a failure into an exception. */
    CommandResult probe(List<String> args, String... body) {
        return exec(args, Map.of(), CommandOptions.builder().maxRetainedBytes(RETAINED_OUTPUT), body);
    }

    private CommandResult exec(List<String> args, Map<String, String> data, CommandOptions.Builder options, String... body) {
        options.env(data);
        if (timeout != null) {
            options.timeout(timeout);
        }
        String line = FileScripts.commandLine(root.path(), args, data.size(), body);
        return sandbox.executeCommand(line, List.of(), options.build());
    }

    /** Throws what a failed script means; returns on success. */
    void check(CommandResult result, String verb, String path) {
        if (result.success()) {
            return;
        }
        throw failure(result, verb, path);
    }

    RuntimeException failure(CommandResult result, String verb, String path) {
        String where = "Cannot " + verb + " '" + path + "' in sandbox '" + sandbox.id() + "': ";
        if (result.timedOut()) {
            return new SandboxException(StandardErrorCode.TIMEOUT, where + "it did not finish within " + DurationFormat.format(timeout) + ".");
        }
        return switch (result.exitCode()) {
            case FileScripts.OUTSIDE -> outside(result.stderr(), path);
            case FileScripts.NOT_FOUND -> new SandboxFileException(StandardErrorCode.FILE_NOT_FOUND, path,
                    where + "it does not exist under the root " + root + ".");
            case FileScripts.NOT_A_DIRECTORY -> new SandboxFileException(StandardErrorCode.NOT_A_DIRECTORY, path,
                    where + "it is not a directory.");
            case FileScripts.IS_A_DIRECTORY -> new SandboxFileException(StandardErrorCode.IS_A_DIRECTORY, path,
                    where + "it is a directory.");
            case FileScripts.NOT_EMPTY -> new SandboxFileException(StandardErrorCode.DIRECTORY_NOT_EMPTY, path,
                    where + "the directory is not empty; delete it recursively to remove its contents.");
            case FileScripts.NOT_A_REGULAR_FILE -> new SandboxFileException(StandardErrorCode.NOT_A_REGULAR_FILE, path,
                    where + "it is not a regular file.");
            case FileScripts.CHANGED -> new SandboxFileException(StandardErrorCode.FILE_CHANGED, path,
                    where + "its directory changed during the operation; nothing was replaced.");
            case FileScripts.ROOT_MISSING -> new SandboxException(StandardErrorCode.ROOT_MISSING, where + "the root " + root
                    + " is not a directory in the sandbox.");
            case FileScripts.LINK_LOOP -> new SandboxFileException(StandardErrorCode.FILE_OPERATION_FAILED, path,
                    where + "resolving it goes through more than 40 symbolic links.");
            default -> new SandboxFileException(StandardErrorCode.FILE_OPERATION_FAILED, path, where + describe(result) + ".");
        };
    }

    private PathOutsideRootException outside(String stderr, String path) {
        int nul = stderr.indexOf('\0');
        String resolved = nul < 0 ? stderr : stderr.substring(nul + 1);
        return new PathOutsideRootException(path, root.path(), "it resolves to " + resolved + " through a symbolic link");
    }

    private static String describe(CommandResult result) {
        String text = result.stderr().strip();
        if (text.isEmpty()) {
            text = result.stdout().strip();
        }
        if (text.isEmpty()) {
            return "the command exited with " + result.exitCode();
        }
        return text.length() > MESSAGE_LIMIT ? "..." + text.substring(text.length() - MESSAGE_LIMIT) : text;
    }
}
