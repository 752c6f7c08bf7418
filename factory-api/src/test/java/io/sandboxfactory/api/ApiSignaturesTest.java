package io.sandboxfactory.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
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

    @Test
    void everyPublicTypeSaysSinceWhichVersion() throws IOException {
        assertThat(ApiSignatures.typesWithoutSince("io/sandboxfactory/api")).as("public types of factory-api without @since in"
                + " their Javadoc").isEmpty();
    }
}
