package io.sandboxfactory.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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

    @Test
    void thePublicSurfaceMatchesTheRecordedSignatures() throws IOException {
        ApiSignatures.assertMatchesRecord("factory-api", "io/sandboxfactory/api", "api-signatures.txt");
    }

    /**
     * What a provider author meets first stays small: the root package holds the contract (the
     * provider, its sandboxes, commands, start hooks, the exception family); optional capabilities,
     * error codes and helpers live in packages of their own.
     */
    @Test
    void theRootPackageHoldsAtMostTwentyFourPublicTypes() throws IOException, URISyntaxException {
        Path root = Path.of(SandboxProvider.class.getProtectionDomain().getCodeSource().getLocation().toURI()).resolve("io/sandboxfactory/api");
        List<String> types;
        try (Stream<Path> classes = Files.list(root)) {
            types = classes.map(file -> file.getFileName().toString())
                    .filter(name -> name.endsWith(".class") && !name.contains("$") && !name.equals("package-info.class"))
                    .map(name -> "io.sandboxfactory.api." + name.substring(0, name.length() - ".class".length()))
                    .filter(ApiSignaturesTest::isPublic)
                    .sorted()
                    .toList();
        }
        assertThat(types).as("public types of io.sandboxfactory.api").hasSizeLessThanOrEqualTo(24);
    }

    private static boolean isPublic(String name) {
        try {
            return Modifier.isPublic(Class.forName(name, false, ApiSignaturesTest.class.getClassLoader()).getModifiers());
        } catch (ClassNotFoundException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void everyPublicTypeSaysSinceWhichVersion() throws IOException {
        assertThat(ApiSignatures.typesWithoutSince("io/sandboxfactory/api")).as("public types of factory-api without @since in"
                + " their Javadoc").isEmpty();
    }
}
