package io.sandboxfactory.bench;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class BenchOptionsTest {

    private static final Path FACTORY = Path.of("./factory");
    private static final Path DOCS = Path.of("/repo/docs/performance.md");

    @Test
    void markdownTakesAnOptionalFileAndDefaultsToTheRepositorysPerformancePage() {
        assertThat(BenchOptions.parse(new String[] {"--quick"}, FACTORY, DOCS).markdown()).isEmpty();
        assertThat(BenchOptions.parse(new String[] {"--markdown"}, FACTORY, DOCS).markdown()).contains(DOCS);
        assertThat(BenchOptions.parse(new String[] {"--markdown", "--quick"}, FACTORY, DOCS).markdown()).contains(DOCS);
        assertThat(BenchOptions.parse(new String[] {"--markdown", "out.md", "--quick"}, FACTORY, DOCS).markdown())
                .isEqualTo(Optional.of(Path.of("out.md")));
    }
}
