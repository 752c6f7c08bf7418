package io.sandboxfactory.tck;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The provider walk-through (the README points to {@code docs/providers/writing-a-provider.md})
 * compiles as written: its blocks fenced {@code ```java compiled} are whole source files, compiled
 * here against factory-api and the kit; their code is the example's ({@code examples/third-party-provider}),
 * comments aside; and together they touch at most {@value #MAX_FRAMEWORK_TYPES} framework types.
 */
class WalkthroughSnippetsTest {

    private static final int MAX_FRAMEWORK_TYPES = 12;
    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
    private static final List<Path> DOCUMENTS = List.of(REPOSITORY.resolve("README.md"),
            REPOSITORY.resolve("docs/providers/writing-a-provider.md"));
    private static final Path EXAMPLE = REPOSITORY.resolve("examples/third-party-provider");

    private static final Pattern COMPILED_BLOCK = Pattern.compile("(?m)^```java compiled\n(.*?)^```$", Pattern.DOTALL);
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package ([\\w.]+);");
    private static final Pattern TOP_LEVEL_TYPE = Pattern.compile("(?m)^(?:public )?(?:final )?(?:class|record|interface|enum) (\\w+)");
    /** A framework type named in the code: imported, or spelled out; a nested type counts as its outer one. */
    private static final Pattern FRAMEWORK_TYPE = Pattern.compile("\\bio\\.sandboxfactory(?:\\.[a-z]\\w*)*\\.[A-Z]\\w*");

    @TempDir
    Path work;

    @Test
    void theMarkedSnippetsCompileAgainstTheApi() throws IOException {
        Map<Path, String> snippets = snippets();
        assertThat(snippets).as("the walk-through's provider classes and kit test").hasSizeGreaterThanOrEqualTo(5);
        List<Path> files = new ArrayList<>();
        for (Map.Entry<Path, String> snippet : snippets.entrySet()) {
            Path file = work.resolve("src").resolve(snippet.getKey());
            Files.createDirectories(file.getParent());
            Files.writeString(file, snippet.getValue(), StandardCharsets.UTF_8);
            files.add(file);
        }

        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        boolean compiled;
        try (StandardJavaFileManager fileManager = compiler.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
            List<String> options = List.of("-proc:none", "--release", "17", "-classpath", System.getProperty("java.class.path"),
                    "-d", Files.createDirectories(work.resolve("classes")).toString());
            compiled = compiler.getTask(null, fileManager, diagnostics, options, null, fileManager.getJavaFileObjectsFromPaths(files)).call();
        }

        assertThat(compiled).as("the snippets compile; javac said:%n%s", diagnostics.getDiagnostics().stream()
                .filter(d -> d.getKind() == Diagnostic.Kind.ERROR).map(String::valueOf).collect(Collectors.joining("\n"))).isTrue();
    }

    @Test
    void theSnippetsTouchAtMostTwelveFrameworkTypes() throws IOException {
        Set<String> types = new TreeSet<>();
        for (String code : snippets().values()) {
            Matcher matcher = FRAMEWORK_TYPE.matcher(code);
            while (matcher.find()) {
                types.add(matcher.group());
            }
        }

        assertThat(types).as("framework types the walk-through touches").isNotEmpty().hasSizeLessThanOrEqualTo(MAX_FRAMEWORK_TYPES);
    }

    @Test
    void theSnippetsAreTheExamplesCodeCommentsAside() throws IOException {
        for (Map.Entry<Path, String> snippet : snippets().entrySet()) {
            Path main = EXAMPLE.resolve("src/main/java").resolve(snippet.getKey());
            Path example = Files.exists(main) ? main : EXAMPLE.resolve("src/test/java").resolve(snippet.getKey());
            assertThat(example).as("the example has %s", snippet.getKey()).isRegularFile();
            assertThat(code(snippet.getValue())).as("the code of %s", snippet.getKey())
                    .isEqualTo(code(Files.readString(example, StandardCharsets.UTF_8)));
        }
    }

    /** Every marked block of the documents, keyed by the source file it is ({@code com/example/X.java}). */
    private static Map<Path, String> snippets() throws IOException {
        Map<Path, String> snippets = new LinkedHashMap<>();
        for (Path document : DOCUMENTS) {
            Matcher block = COMPILED_BLOCK.matcher(Files.readString(document, StandardCharsets.UTF_8));
            while (block.find()) {
                String code = block.group(1);
                Matcher pkg = PACKAGE.matcher(code);
                Matcher type = TOP_LEVEL_TYPE.matcher(code);
                assertThat(pkg.find() && type.find()).as("a marked block in %s is a whole source file: %n%s", document, code).isTrue();
                Path file = Path.of(pkg.group(1).replace('.', '/'), type.group(1) + ".java");
                assertThat(snippets.put(file, code)).as("%s is shown once", file).isNull();
            }
        }
        return snippets;
    }

    /** The source's code lines, trimmed, without comments and blank lines. */
    private static List<String> code(String source) {
        String withoutBlocks = source.replaceAll("(?s)/\\*.*?\\*/", "");
        return withoutBlocks.lines()
                .map(line -> line.replaceAll("\\s*//.*$", "").strip())
                .filter(line -> !line.isEmpty())
                .toList();
    }
}
