package io.sandboxfactory.core.files;

import io.sandboxfactory.api.files.SandboxFileException;
import io.sandboxfactory.api.error.StandardErrorCode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The file operations that are one command each, over {@link SandboxShell}: resolve, list, stat,
 * mkdirs, delete, move, symbolic links, and the steps of a write. Every path is a normalized
 * relative path (see {@link SandboxRoot#normalize}); {@link #display} words it for messages.
 */
final class FileCommands {

    /** What {@link #prepareWrite} made: the canonical root and the temporary file beside the target. */
    record PreparedWrite(String root, String temp) {
    }

    private final SandboxShell shell;
    private final SandboxRoot root;

    FileCommands(SandboxShell shell) {
        this.shell = shell;
        this.root = shell.root();
    }

    SandboxRoot root() {
        return root;
    }

    SandboxShell shell() {
        return shell;
    }

    /** The path as messages show it. */
    static String display(String path) {
        return path.isEmpty() ? "." : path;
    }

    String absolute(String path) {
        return root.absolute(path);
    }

    Resolved resolve(String path) {
        return resolved(path, shell.run("resolve", display(path), List.of(absolute(path)), Map.of(), FileScripts.RESOLVE));
    }

    /** Creates the directory at {@code path} and its parents; fine when it exists. */
    Resolved mkdirs(String path) {
        return resolved(path, shell.run("create directory", display(path), List.of(absolute(path)), Map.of(), FileScripts.MKDIRS));
    }

    private Resolved resolved(String path, String out) {
        String[] parts = fields(out, 3, path);
        if (parts[2].length() != 1) {
            throw unexpected(path, "resolved path");
        }
        return new Resolved(parts[0], parts[1], parts[2].charAt(0));
    }

    List<FileInfo> list(String path) {
        String out = shell.run("list", display(path), List.of(absolute(path)), Map.of(), FileScripts.LIST);
        return parseListing(out);
    }

    FileInfo stat(String path) {
        String out = shell.run("stat", display(path), List.of(absolute(path)), Map.of(), FileScripts.STAT).strip();
        String[] fields = out.split(" ");
        if (fields.length != 3) {
            throw unexpected(path, "stat");
        }
        return info(path.isEmpty() ? "" : SandboxRoot.name(path), fields[0], fields[1], fields[2]);
    }

    void delete(String path, boolean recursive) {
        shell.run("delete", display(path), List.of(absolute(SandboxRoot.parent(path)), SandboxRoot.name(path), recursive ? "1" : "0"),
                Map.of(), FileScripts.DELETE);
    }

    void move(String from, String to) {
        String targetParent = absolute(SandboxRoot.parent(to));
        var result = shell.probe(List.of(absolute(SandboxRoot.parent(from)), SandboxRoot.name(from), targetParent, SandboxRoot.name(to)),
                FileScripts.MOVE);
        if (result.success()) {
            return;
        }
        boolean aboutTarget = result.exitCode() == FileScripts.IS_A_DIRECTORY
                || (result.exitCode() == FileScripts.OUTSIDE && result.stderr().startsWith(targetParent + "\0"));
        throw aboutTarget ? shell.failure(result, "move '" + display(from) + "' onto", display(to)) : shell.failure(result, "move", display(from));
    }

    void symlink(String path, String target) {
        shell.run("create symbolic link", display(path), List.of(absolute(SandboxRoot.parent(path)), SandboxRoot.name(path), target),
                Map.of(), FileScripts.SYMLINK);
    }

    String readlink(String path) {
        String out = shell.run("read symbolic link", display(path), List.of(absolute(SandboxRoot.parent(path)), SandboxRoot.name(path)),
                Map.of(), FileScripts.READLINK);
        return out.endsWith("\n") ? out.substring(0, out.length() - 1) : out;
    }

    // ---- the steps of a write ------------------------------------------------------------------

    /**
     * Makes the temporary file for writing {@code path} and appends {@code data}; with {@code
     * finish} also renames it over the target in the same command (a write that fits one chunk).
     */
    PreparedWrite prepareWrite(String path, String token, String mode, Map<String, String> data, boolean finish) {
        List<String> body = new ArrayList<>(List.of(FileScripts.PREPARE_WRITE));
        if (!data.isEmpty()) {
            body.add(FileScripts.APPEND_TO_TEMP);
        }
        if (finish) {
            body.add(FileScripts.FINISH_WRITE);
        }
        String out = shell.run("write", display(path), writeArgs(path, token, mode, ""), data, body.toArray(String[]::new));
        String[] parts = fields(out, 3, path);
        return new PreparedWrite(parts[0], parts[2]);
    }

    void appendToTemp(String path, String token, String temp, Map<String, String> data) {
        shell.run("write", display(path), writeArgs(path, token, "", temp), data, FileScripts.REOPEN_TEMP, FileScripts.APPEND_TO_TEMP);
    }

    /** Appends the last {@code data} (may be empty) and renames the temporary file over the target. */
    void finishWrite(String path, String token, String mode, String temp, Map<String, String> data) {
        if (data.isEmpty()) {
            shell.run("write", display(path), writeArgs(path, token, mode, temp), data, FileScripts.REOPEN_TEMP, FileScripts.FINISH_WRITE);
        } else {
            shell.run("write", display(path), writeArgs(path, token, mode, temp), data, FileScripts.REOPEN_TEMP,
                    FileScripts.APPEND_TO_TEMP, FileScripts.FINISH_WRITE);
        }
    }

    /** Removes a temporary file after a failed write; never throws. */
    void discardTemp(String path, String token, String temp) {
        try {
            shell.probe(writeArgs(path, token, "", temp), FileScripts.DISCARD_TEMP);
        } catch (RuntimeException ignored) {
            // The write's own failure is what the caller needs; a leftover .sf-* file is harmless.
        }
    }

    void append(String path, Map<String, String> data) {
        shell.run("append to", display(path), List.of(absolute(path)), data, FileScripts.APPEND);
    }

    private List<String> writeArgs(String path, String token, String mode, String temp) {
        return List.of(absolute(path), token, mode == null ? "" : mode, temp);
    }

    // ---- parsing ----------------------------------------------------------------------------------

    private String[] fields(String out, int count, String path) {
        String[] parts = out.split("\0", -1);
        if (parts.length < count) {
            throw unexpected(path, "answer");
        }
        return parts;
    }

    /** Parses {@link FileScripts#LIST}: names (NUL-terminated), an empty name, then one stat line per name. */
    static List<FileInfo> parseListing(String out) {
        List<String> names = new ArrayList<>();
        int at = 0;
        while (at < out.length()) {
            int nul = out.indexOf('\0', at);
            if (nul < 0) {
                throw new IllegalStateException("The listing has no end of names.");
            }
            if (nul == at) {
                at++;
                break;
            }
            names.add(out.substring(at, nul));
            at = nul + 1;
        }
        List<FileInfo> entries = new ArrayList<>(names.size());
        for (String name : names) {
            // "<mode> <size> <mtime> <name>\n"; an entry that vanished before stat saw it has no line.
            int first = out.indexOf(' ', at);
            int second = first < 0 ? -1 : out.indexOf(' ', first + 1);
            int third = second < 0 ? -1 : out.indexOf(' ', second + 1);
            if (third < 0 || !out.startsWith(name + "\n", third + 1)) {
                continue;
            }
            try {
                entries.add(info(name, out.substring(at, first), out.substring(first + 1, second), out.substring(second + 1, third)));
            } catch (NumberFormatException e) {
                continue;
            }
            at = third + 1 + name.length() + 1;
        }
        entries.sort(Comparator.comparing(FileInfo::name));
        return entries;
    }

    private static FileInfo info(String name, String rawMode, String size, String mtime) {
        int mode = Integer.parseInt(rawMode, 16);
        return new FileInfo(name, FileType.ofMode(mode), Long.parseLong(size), Instant.ofEpochSecond(Long.parseLong(mtime)), mode & 07777);
    }

    private SandboxFileException unexpected(String path, String what) {
        return new SandboxFileException(StandardErrorCode.FILE_OPERATION_FAILED, display(path), "Cannot read the " + what + " for '" + display(path)
                + "' in sandbox '" + shell.sandboxId() + "': the sandbox's shell answered in an unexpected form.");
    }
}
