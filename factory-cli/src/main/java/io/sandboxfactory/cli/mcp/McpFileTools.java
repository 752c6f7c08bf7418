package io.sandboxfactory.cli.mcp;

import io.sandboxfactory.cli.BadInputException;
import io.sandboxfactory.cli.session.FileEdit;
import io.sandboxfactory.cli.session.FileSlice;
import io.sandboxfactory.cli.session.SessionFileAccess;
import io.sandboxfactory.cli.session.StoredSessions;
import io.sandboxfactory.cli.session.SessionJson;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.files.FileInfo;
import io.sandboxfactory.core.files.SandboxFilesystem;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The file tools of {@code factory mcp}: read, write, edit, list and delete files of a session's
 * checkout. Paths are checked and confined exactly as {@code factory cat/cp/ls} check them (relative,
 * no {@code ..}, no way out through a symbolic link), before the sandbox is started.
 */
public final class McpFileTools {

    private static final String ID = "Session id.";
    private static final String PATH = "Path relative to the checkout (an environment: to the workspace root), e.g. src/main.c.";

    private final SandboxFactory factory;

    public McpFileTools(SandboxFactory factory) {
        this.factory = factory;
    }

    public List<McpTool> tools() {
        return List.of(read(), write(), edit(), list(), delete());
    }

    /** Runs {@code action} on {@code path} in the files of the session the call names; path refusals are bad input. */
    private <T> T onFile(McpTool.Call call, String path, Function<Located, T> action) {
        String id = call.arguments().string("id");
        // Checked before the session's sandbox is started for a path that cannot be served.
        SessionFileAccess.Target target = new SessionFileAccess.Target(id, path);
        return SessionFileAccess.reportingBadPaths(() -> action.apply(
                new Located(SessionFileAccess.files(factory, target.sessionId(), StoredSessions.Audience.MCP), target)));
    }

    private record Located(SandboxFilesystem files, SessionFileAccess.Target target) {
        String path() {
            return target.path();
        }

        Map<String, Object> doc() {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("session", target.sessionId());
            doc.put("path", target.path());
            return doc;
        }
    }

    private McpTool read() {
        ToolSchema schema = ToolSchema.object().string("id", true, ID).string("path", true, PATH)
                .integer("offset", "Lines to skip (bytes for a binary file); default 0.")
                .integer("limit", "Lines to return at most (bytes for a binary file); default " + FileSlice.DEFAULT_LINES
                        + " lines or " + FileSlice.DEFAULT_BYTES / 1024 + " KiB.");
        return new McpTool("file_read", "Read a file of a session's checkout. A text file (UTF-8) comes as text, by lines; any other"
                + " file as base64, by bytes. 'truncated' says there is more after what was returned.", schema, call -> {
                    McpArguments args = call.arguments();
                    long offset = args.number("offset", 0, 0);
                    Optional<Long> limit = args.number("limit", -1, 1) < 0 ? Optional.empty() : Optional.of(args.number("limit", -1, 1));
                    return onFile(call, call.arguments().string("path"), at -> {
                        Map<String, Object> doc = at.doc();
                        doc.putAll(FileSlice.of(at.files().readFile(at.path()), offset, limit));
                        return new McpTool.McpReply(doc, "utf-8".equals(doc.get("encoding")) ? Optional.of((String) doc.get("content"))
                                : Optional.empty());
                    });
                });
    }

    private McpTool write() {
        ToolSchema schema = ToolSchema.object().string("id", true, ID).string("path", true, PATH)
                .string("content", true, "The whole new content of the file.")
                .enumeration("encoding", List.of("utf-8", "base64"), "How content is given: utf-8 text (default) or base64 bytes.");
        return new McpTool("file_write", "Create or replace a file of a session's checkout (missing parent directories are created;"
                + " the replacement is atomic and keeps the file's permissions).", schema, call -> {
                    McpArguments args = call.arguments();
                    byte[] content = bytes(args.string("content"), args.optionalString("encoding").orElse("utf-8"));
                    return onFile(call, call.arguments().string("path"), at -> {
                        at.files().writeFile(at.path(), content);
                        Map<String, Object> doc = at.doc();
                        doc.put("bytes", content.length);
                        return McpTool.McpReply.of(doc);
                    });
                });
    }

    private static byte[] bytes(String content, String encoding) {
        switch (encoding) {
            case "utf-8":
                return content.getBytes(StandardCharsets.UTF_8);
            case "base64":
                try {
                    return Base64.getDecoder().decode(content);
                } catch (IllegalArgumentException e) {
                    throw new BadInputException("content of file_write is not valid base64: " + e.getMessage() + ".");
                }
            default:
                throw new BadInputException("encoding '" + encoding + "' of file_write is unknown; give utf-8 or base64.");
        }
    }

    private McpTool edit() {
        ToolSchema schema = ToolSchema.object().string("id", true, ID).string("path", true, PATH)
                .string("old_string", true, "The exact text to replace, whitespace included; it must occur once unless replace_all.")
                .string("new_string", true, "The text to put in its place.")
                .bool("replace_all", "Replace every occurrence instead of exactly one.");
        return new McpTool("file_edit", "Replace an exact string in a text file of a session's checkout. Fails, changing nothing, when"
                + " the string does not occur or occurs more than once (unless replace_all), and says which.", schema, call -> {
                    McpArguments args = call.arguments();
                    String oldString = args.string("old_string");
                    String newString = args.string("new_string");
                    boolean all = args.flag("replace_all");
                    return onFile(call, call.arguments().string("path"), at -> {
                        String where = at.target().toString();
                        String text = FileSlice.text(at.files().readFile(at.path())).orElseThrow(() -> new BadInputException(
                                where + " is not a UTF-8 text file; file_edit edits text, use file_write for other files."));
                        FileEdit.Edited edited = FileEdit.apply(text, oldString, newString, all, where);
                        at.files().writeText(at.path(), edited.text());
                        Map<String, Object> doc = at.doc();
                        doc.put("replacements", edited.replacements());
                        return McpTool.McpReply.of(doc);
                    });
                });
    }

    private McpTool list() {
        ToolSchema schema = ToolSchema.object().string("id", true, ID)
                .string("path", false, "A directory relative to the checkout; default: the checkout itself.");
        return new McpTool("file_list", "List a directory of a session's checkout: name, type (file, directory, symlink), size,"
                + " modification time and permissions of each entry.", schema, call -> onFile(call, call.arguments().optionalString("path").orElse(""), at -> {
                    FileInfo info = at.files().stat(at.path());
                    List<FileInfo> entries = info.isDirectory() ? at.files().list(at.path()) : List.of(info);
                    Map<String, Object> doc = at.doc();
                    doc.put("entries", entries.stream().map(SessionJson::fileEntry).toList());
                    return McpTool.McpReply.of(doc);
                }));
    }

    private McpTool delete() {
        ToolSchema schema = ToolSchema.object().string("id", true, ID).string("path", true, PATH)
                .bool("recursive", "Delete a directory with everything in it (default: only files, links and empty directories).");
        return new McpTool("file_delete", "Delete a file, symbolic link or directory of a session's checkout; never the checkout"
                + " itself, never anything outside it.", schema, call -> {
                    boolean recursive = call.arguments().flag("recursive");
                    return onFile(call, call.arguments().string("path"), at -> {
                        at.files().delete(at.path(), recursive);
                        return McpTool.McpReply.of(at.doc());
                    });
                });
    }
}
