package io.sandboxfactory.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CLI reaches providers through factory-api only ({@code AttachableSandbox}, {@code
 * SandboxInventory}, ...): no main source names a class of a bundled provider, so a provider
 * loaded as a plugin serves every command the bundled ones do.
 */
class NoProviderImportsTest {

    private static final String PROVIDER_PACKAGES = "io.sandboxfactory.provider.";

    @Test
    void noMainSourceNamesAProviderClass() throws IOException {
        Path sources = Path.of("src/main/java");
        assertThat(sources).isDirectory();
        List<Path> naming;
        try (Stream<Path> files = Files.walk(sources)) {
            naming = files.filter(file -> file.toString().endsWith(".java")).filter(NoProviderImportsTest::namesAProvider).toList();
        }
        assertThat(naming).as("factory-cli main sources that name a class of " + PROVIDER_PACKAGES + "*").isEmpty();
    }

    private static boolean namesAProvider(Path file) {
        try {
            return Files.readString(file).contains(PROVIDER_PACKAGES);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
