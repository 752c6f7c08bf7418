package io.sandboxfactory.core;

import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.config.StoreConfig;
import io.sandboxfactory.core.session.Redaction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** What a factory tells its host to mask: the store's password under whatever variable the config names. */
class FactoryRedactionTest {

    @TempDir
    Path tmp;

    @Test
    void theStorePasswordOfTheVariableTheConfigNamesIsMasked() {
        FactoryConfig config = FactoryConfig.builder().provider("local").stateDir(tmp.resolve("state"))
                .store(new StoreConfig("sqlite", Optional.empty(), Optional.empty(), Optional.of("SF_STORE_PW"), Optional.empty(),
                        Optional.empty(), null, null))
                .build();
        try (SandboxFactory factory = SandboxFactory.builder().config(config)
                .environment(Map.of("SF_STORE_PW", "store-pw-value", "HOME_DIR", "/home/user-value")).build()) {
            Redaction redaction = factory.redaction();

            assertThat(redaction.apply("pw store-pw-value in /home/user-value")).isEqualTo("pw **** in /home/user-value");
        }
    }
}
