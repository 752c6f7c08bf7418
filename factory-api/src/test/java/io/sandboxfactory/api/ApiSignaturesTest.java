package io.sandboxfactory.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Binary compatibility of factory-api against the recorded signature list {@code
 * src/test/resources/api-signatures.txt}: there is no released factory-api to compare with
 * japicmp yet, so the last recorded public surface stands in for it. A removed or changed
 * signature fails; so does an added one, so the record stays exact (regenerate it then, see
 * CONTRIBUTING.md). Every public type also carries {@code @since}.
 */
class ApiSignaturesTest {

    private static final Path RECORD = Path.of("src/test/resources/api-signatures.txt");
    private static final Path SOURCES = Path.of("src/main/java");
    private static final String REGENERATE = "./mvnw -B -o verify -pl factory-api -Dtest=ApiSignaturesTest"
            + " -Dapi.signatures.write=true";

    @Test
    void thePublicSurfaceMatchesTheRecordedSignatures() throws IOException {
        List<String> current = ApiSignatures.of(publicTypes());
        if (Boolean.getBoolean("api.signatures.write")) {
            Files.write(RECORD, current, StandardCharsets.UTF_8);
        }
        Set<String> recorded = new LinkedHashSet<>(Files.readAllLines(RECORD, StandardCharsets.UTF_8));
        List<String> removed = recorded.stream().filter(line -> !current.contains(line)).toList();
        List<String> added = current.stream().filter(line -> !recorded.contains(line)).toList();

        assertThat(removed).as("signatures of factory-api that were removed or changed, which breaks providers built against"
                + " the recorded API; keep them (deprecate instead), or, for a deliberate break before a release, regenerate"
                + " the record with: " + REGENERATE).isEmpty();
        assertThat(added).as("signatures added to factory-api (compatible); record them with: " + REGENERATE).isEmpty();
    }

    @Test
    void everyPublicTypeSaysSinceWhichVersion() throws IOException {
        List<String> missing = new ArrayList<>();
        for (Class<?> type : publicTypes()) {
            if (type.getEnclosingClass() != null) {
                continue;
            }
            Path source = SOURCES.resolve(type.getName().replace('.', '/') + ".java");
            if (!Files.readString(source).contains("@since ")) {
                missing.add(type.getName());
            }
        }
        assertThat(missing).as("public types of factory-api without @since in their Javadoc").isEmpty();
    }

    /** Every public type compiled from factory-api's sources, nested ones included. */
    private static List<Class<?>> publicTypes() throws IOException {
        Path classes = Path.of("target/classes");
        List<Class<?>> types = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes.resolve("io/sandboxfactory/api"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
                String name = classes.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
                Class<?> type = load(name);
                if (ApiSignatures.isVisible(type)) {
                    types.add(type);
                }
            }
        }
        return types;
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, ApiSignaturesTest.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }
}
