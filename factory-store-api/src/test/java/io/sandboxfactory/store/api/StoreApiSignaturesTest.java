package io.sandboxfactory.store.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.sandboxfactory.api.ApiSignatures;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * Binary compatibility of factory-store-api against {@code src/test/resources/store-api-signatures.txt},
 * as factory-api's {@code ApiSignaturesTest} does for the provider SPI: a store built against the
 * recorded surface must keep linking. Every public type also carries {@code @since}.
 */
class StoreApiSignaturesTest {

    private static final String PACKAGE = "io/sandboxfactory/store/api";

    @Test
    void thePublicSurfaceMatchesTheRecordedSignatures() throws IOException {
        ApiSignatures.assertMatchesRecord("factory-store-api", PACKAGE, "store-api-signatures.txt");
    }

    @Test
    void everyPublicTypeSaysSinceWhichVersion() throws IOException {
        assertThat(ApiSignatures.typesWithoutSince(PACKAGE)).as("public types of factory-store-api without @since in their Javadoc")
                .isEmpty();
    }
}
