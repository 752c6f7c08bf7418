package io.sandboxfactory.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What a host may use of factory-core stays deliberate: the public top-level types outside
 * {@code io.sandboxfactory.core.internal} (the host API; {@code core.internal.*} carries no
 * compatibility promise) must equal the recorded list {@code src/test/resources/core-host-api.txt},
 * and each must say in a class Javadoc what a host uses it for. A type made public, or moved out of
 * or into {@code internal}, fails until the record is regenerated (see CONTRIBUTING.md) and
 * committed with the change, so the change is a visible decision.
 */
class CorePublicSurfaceTest {

    private static final Path RECORD = Path.of("src/test/resources/core-host-api.txt");
    private static final Path SOURCES = Path.of("src/main/java");
    private static final String INTERNAL = "io.sandboxfactory.core.internal";
    private static final String REGENERATE = "./mvnw -B -o verify -pl factory-core -am -Dtest=CorePublicSurfaceTest"
            + " -Dsurefire.failIfNoSpecifiedTests=false -DskipITs -Dcore.host.api.write=true";

    /** A top-level declaration: it starts a line (nested ones are indented). */
    private static final Pattern PUBLIC_TYPE = Pattern.compile(
            "^public (?:(?:final|abstract|sealed|non-sealed|strictfp) )*(?:class|interface|record|enum|@interface) (\\w+)",
            Pattern.MULTILINE);
    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern TRAILING_ANNOTATIONS = Pattern.compile("(?:\\s*@[\\w.]+(?:\\([^)]*\\))?)+\\s*$");

    @Test
    void thePublicTypesOutsideInternalAreTheRecordedHostApi() throws IOException {
        List<String> current = List.copyOf(hostApi().keySet());
        if (Boolean.getBoolean("core.host.api.write")) {
            Files.write(RECORD, current, StandardCharsets.UTF_8);
        }
        List<String> recorded = Files.readAllLines(RECORD, StandardCharsets.UTF_8);
        List<String> added = current.stream().filter(type -> !recorded.contains(type)).toList();
        List<String> removed = recorded.stream().filter(type -> !current.contains(type)).toList();

        assertThat(added).as("public types of factory-core outside " + INTERNAL + " that are not in the recorded host API: make"
                + " them package-private, move them to " + INTERNAL + ".<feature> if other core packages need them, or, when"
                + " a host is to use them, record them with: " + REGENERATE).isEmpty();
        assertThat(removed).as("host API types of factory-core that are gone, no longer public or moved to " + INTERNAL
                + " (hosts built against them break); when that is meant, record it with: " + REGENERATE).isEmpty();
    }

    @Test
    void everyHostApiTypeSaysWhatAHostUsesItFor() throws IOException {
        List<String> undocumented = hostApi().entrySet().stream()
                .filter(type -> !hasJavadoc(type.getValue())).map(Map.Entry::getKey).toList();
        assertThat(undocumented).as("public types of factory-core outside " + INTERNAL + " without a class Javadoc saying"
                + " what a host uses them for").isEmpty();
    }

    @Test
    void aTypeWithoutJavadocIsCaught() {
        assertThat(hasJavadoc("package p;\n\n/** What a host does with it. */\n@Deprecated\npublic final class A {\n}\n")).isTrue();
        assertThat(hasJavadoc("package p;\n\nimport java.util.List;\n\npublic final class A {\n}\n")).isFalse();
        assertThat(hasJavadoc("package p;\n\n/* Not Javadoc. */\npublic record A() {\n}\n")).isFalse();
    }

    /** Each public top-level type outside internal, by name, with the source declaring it. */
    private static Map<String, String> hostApi() throws IOException {
        Map<String, String> types = new TreeMap<>();
        List<Path> sources = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            files.filter(file -> file.toString().endsWith(".java")).forEach(sources::add);
        }
        for (Path file : sources) {
            String source = Files.readString(file, StandardCharsets.UTF_8);
            Matcher pkg = PACKAGE.matcher(source);
            Matcher type = PUBLIC_TYPE.matcher(source);
            if (!pkg.find() || !type.find()) {
                continue;
            }
            String name = pkg.group(1) + "." + type.group(1);
            if (!name.startsWith(INTERNAL + ".")) {
                types.put(name, source);
            }
        }
        return types;
    }

    /** Whether the public top-level type of {@code source} has a Javadoc comment right before it (annotations aside). */
    private static boolean hasJavadoc(String source) {
        Matcher type = PUBLIC_TYPE.matcher(source);
        if (!type.find()) {
            return false;
        }
        String before = TRAILING_ANNOTATIONS.matcher(source.substring(0, type.start())).replaceFirst("").stripTrailing();
        return before.endsWith("*/") && before.lastIndexOf("/**") >= 0 && before.lastIndexOf("/**") == before.lastIndexOf("/*");
    }
}
