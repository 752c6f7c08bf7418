package io.sandboxfactory.bench.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The part of a Markdown file between {@code <!-- bench:start -->} and {@code <!-- bench:end -->}
 * that {@code factory bench --markdown} owns (docs/performance.md): the rest of the file is prose
 * people write, so only that part is ever replaced, and a file without both markers is refused
 * before the bench spends its minutes.
 */
public final class MarkdownSection {

    public static final String START = "<!-- bench:start -->";
    public static final String END = "<!-- bench:end -->";

    private final Path file;

    public MarkdownSection(Path file) {
        this.file = file;
    }

    /** Fails, saying what to do, unless the file exists and holds the two markers in order. */
    public void check() {
        String text = read();
        int start = text.indexOf(START);
        int end = text.indexOf(END);
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("Markdown file '" + file + "' has no '" + START + "' line followed by an '"
                    + END + "' line; add them where the bench's table goes.");
        }
    }

    /** Replaces what is between the markers with {@code body}, atomically, leaving the rest of the file as it was. */
    public void write(String body) {
        check();
        String text = read();
        int from = text.indexOf(START) + START.length();
        int to = text.indexOf(END);
        String replaced = text.substring(0, from) + "\n" + body.strip() + "\n" + text.substring(to);
        try {
            Path temp = Files.createTempFile(file.toAbsolutePath().getParent(), ".bench-", ".md");
            Files.writeString(temp, replaced, StandardCharsets.UTF_8);
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not write " + file + ": " + e.getMessage(), e);
        }
    }

    private String read() {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("Markdown file '" + file + "' does not exist; --markdown writes into an existing file between '"
                    + START + "' and '" + END + "'.");
        }
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read " + file + ": " + e.getMessage(), e);
        }
    }
}
