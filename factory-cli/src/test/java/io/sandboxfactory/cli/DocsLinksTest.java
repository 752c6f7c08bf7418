package io.sandboxfactory.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every relative link in README.md, CONTRIBUTING.md and docs/**.md resolves: the file exists and,
 * for a link to a heading of a Markdown file, that file has a heading with that GitHub anchor. Docs
 * move between files; this is what keeps their links from breaking silently.
 */
class DocsLinksTest {

    private static final Path PROJECT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern FENCE = Pattern.compile("(?ms)^```.*?^```");
    private static final Pattern CODE_SPAN = Pattern.compile("`[^`\\n]*`");

    @Test
    void everyRelativeLinkOfTheDocsResolves() {
        List<String> broken = new ArrayList<>();
        Map<Path, Set<String>> anchors = new HashMap<>();
        List<Path> docs = docs();
        assertThat(docs).as("the docs this test reads").hasSizeGreaterThan(10);
        for (Path doc : docs) {
            Matcher link = LINK.matcher(CODE_SPAN.matcher(FENCE.matcher(read(doc)).replaceAll("")).replaceAll(""));
            while (link.find()) {
                String target = link.group(1);
                if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
                    continue;  // http:, https:, mailto: — not ours to check
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path resolved = file.isEmpty() ? doc : doc.getParent().resolve(file).normalize();
                String where = PROJECT.relativize(doc) + ": (" + target + ")";
                if (!Files.exists(resolved)) {
                    broken.add(where + " names no file");
                } else if (hash >= 0 && resolved.toString().endsWith(".md")
                        && !anchors.computeIfAbsent(resolved, DocsLinksTest::anchors).contains(target.substring(hash + 1))) {
                    broken.add(where + " names no heading of " + PROJECT.relativize(resolved));
                }
            }
        }
        assertThat(broken).as("broken links").isEmpty();
    }

    @Test
    void anchorsAreGitHubs() {
        assertThat(slug("1. Modules and their dependencies")).isEqualTo("1-modules-and-their-dependencies");
        assertThat(slug("The CLI's integration tests and the factory daemon")).isEqualTo("the-clis-integration-tests-and-the-factory-daemon");
        assertThat(slug("What a command would run with: `factory config`")).isEqualTo("what-a-command-would-run-with-factory-config");
        assertThat(slug("Many hosts, one store: PostgreSQL")).isEqualTo("many-hosts-one-store-postgresql");
    }

    private static List<Path> docs() {
        List<Path> docs = new ArrayList<>(List.of(PROJECT.resolve("README.md"), PROJECT.resolve("CONTRIBUTING.md")));
        try (Stream<Path> files = Files.walk(PROJECT.resolve("docs"))) {
            files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return docs;
    }

    /** The anchors GitHub gives the headings of a Markdown file (outside code blocks), a repeated one suffixed -1, -2, …. */
    private static Set<String> anchors(Path file) {
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : read(file).split("\n", -1)) {
            if (line.startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            Matcher heading = HEADING.matcher(line);
            if (!fenced && heading.matches()) {
                String slug = slug(heading.group(1));
                int n = seen.merge(slug, 1, Integer::sum) - 1;
                anchors.add(n == 0 ? slug : slug + "-" + n);
            }
        }
        return anchors;
    }

    /** GitHub's rule: lower case, every character but letters, digits, spaces, '-' and '_' dropped, spaces to '-'. */
    static String slug(String heading) {
        return heading.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}\\- _]", "").replace(' ', '-');
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
