package io.sandboxfactory.cli.command;

import io.sandboxfactory.cli.ExitCodes;
import io.sandboxfactory.cli.FactoryCommand;
import io.sandboxfactory.cli.FactoryLauncher;
import io.sandboxfactory.cli.FactorySource;
import io.sandboxfactory.cli.output.Console;
import io.sandboxfactory.cli.output.Json;
import io.sandboxfactory.cli.session.SessionFileAccess;
import io.sandboxfactory.cli.session.SessionJson;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.files.FileInfo;
import io.sandboxfactory.core.files.SandboxFilesystem;
import io.sandboxfactory.core.session.SessionListener;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code factory ls}: the entries of a directory in a session (or one file). */
@Command(mixinStandardHelpOptions = true, name = "ls",
        description = {"List a directory of a session's checkout (the checkout itself without :PATH), or show one file.",
                "Directories end with /, symbolic links with @. Paths that leave the checkout are refused with exit 2."},
        footerHeading = "%nExamples:%n",
        footer = {"  factory ls fix-42", "  factory ls -l fix-42:src", "  factory --json ls fix-42:src/main.c"})
public final class LsCommand implements Callable<Integer> {

    @ParentCommand
    FactoryCommand root;

    @Parameters(index = "0", paramLabel = "SESSION[:PATH]", description = "The session, and optionally a path in its checkout.")
    String target;

    @Option(names = {"-l", "--long"}, description = "Show type, permissions, size and modification time.")
    boolean longFormat;

    @Override
    public Integer call() {
        Console console = root.console;
        SessionFileAccess.Target where = SessionFileAccess.Target.sessionOrPath(target);
        try (FactorySource.Use use = console.factories().use(new FactoryLauncher(console, root.global), SessionListener.NONE)) {
            SandboxFactory factory = use.factory();
            List<FileInfo> entries = SessionFileAccess.reportingBadPaths(() -> {
                SandboxFilesystem files = SessionFileAccess.files(factory, where.sessionId());
                FileInfo info = files.stat(where.path());
                return info.isDirectory() ? files.list(where.path()) : List.of(info);
            });
            if (root.global.json) {
                List<Map<String, Object>> rows = entries.stream().map(SessionJson::fileEntry).toList();
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("session", where.sessionId());
                doc.put("path", where.path());
                doc.put("entries", rows);
                Json.print(console, doc);
            } else {
                for (FileInfo entry : entries) {
                    String name = shown(entry);
                    if (longFormat) {
                        console.out().printf("%s%s %12d %s %s%n", typeChar(entry), permissions(entry.permissions()), entry.size(),
                                entry.modified().toString().replace('T', ' ').replace("Z", ""), name);
                    } else {
                        console.out().println(name);
                    }
                }
            }
            return ExitCodes.OK;
        }
    }

    /** The name with control characters escaped (a name may hold a newline) and the type marker. */
    private static String shown(FileInfo entry) {
        StringBuilder name = new StringBuilder();
        entry.name().codePoints().forEach(c -> {
            switch (c) {
                case '\n' -> name.append("\\n");
                case '\t' -> name.append("\\t");
                case '\\' -> name.append("\\\\");
                default -> {
                    if (Character.isISOControl(c)) {
                        name.append(String.format("\\x%02x", c));
                    } else {
                        name.appendCodePoint(c);
                    }
                }
            }
        });
        return switch (entry.type()) {
            case DIRECTORY -> name + "/";
            case SYMLINK -> name + "@";
            default -> name.toString();
        };
    }

    private static char typeChar(FileInfo entry) {
        return switch (entry.type()) {
            case DIRECTORY -> 'd';
            case SYMLINK -> 'l';
            case FILE -> '-';
            case OTHER -> '?';
        };
    }

    private static String permissions(int mode) {
        String letters = "rwxrwxrwx";
        StringBuilder text = new StringBuilder(9);
        for (int i = 0; i < 9; i++) {
            text.append((mode & (1 << (8 - i))) != 0 ? letters.charAt(i) : '-');
        }
        return text.toString();
    }
}
