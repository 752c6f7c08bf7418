package io.sandboxfactory.core.internal.store;

import io.sandboxfactory.api.error.ErrorCode;
import io.sandboxfactory.api.error.ErrorCodeSupplier;
import io.sandboxfactory.api.error.ErrorKind;
import io.sandboxfactory.core.FactoryConfigurationException;
import io.sandboxfactory.core.config.StoreConfig;
import io.sandboxfactory.core.internal.discovery.ErrorCodeOwners;
import io.sandboxfactory.store.api.SessionStore;
import io.sandboxfactory.store.api.SessionStoreProvider;
import io.sandboxfactory.store.api.StoreContext;
import io.sandboxfactory.store.api.StoreSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SessionStoresTest {

    @TempDir
    Path tmp;

    /** A store whose own codes are a fresh one and one named as a framework code. */
    public static final class ClashingStore implements SessionStoreProvider {
        @Override
        public String type() {
            return "clash";
        }

        @Override
        public SessionStore open(StoreSettings settings, StoreContext context) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<ErrorCodeSupplier> errorCodes() {
            return List.of(new ErrorCode("CLASH_OWN", ErrorKind.INFRASTRUCTURE, "A test code."),
                    new ErrorCode("SESSION_STORE", ErrorKind.INFRASTRUCTURE, "A test code named as the framework's."));
        }
    }

    @Test
    void aStoresErrorCodeNamedAsOneOfTheFrameworkFailsDiscovery() throws IOException {
        try (URLClassLoader loader = withServices(ClashingStore.class)) {
            assertThatThrownBy(() -> SessionStores.discover(loader))
                    .isInstanceOfSatisfying(FactoryConfigurationException.class,
                            e -> assertThat(e.code()).isEqualTo("STORE_DISCOVERY_FAILED"))
                    .hasMessageContaining("Error code SESSION_STORE is declared by the framework (StandardErrorCode) and by session store"
                            + " 'clash' (" + ClashingStore.class.getName() + ")")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("CLASH_OWN"));
        }
    }

    @Test
    void aStoresErrorCodeNamedAsAProvidersOrTheHostsFailsDiscoveryWithTheOwnersOfTheFactory() throws IOException {
        // One factory's owners: the host's codes, then a provider's (claimed by provider discovery), then the stores'.
        ErrorCodeOwners owners = new ErrorCodeOwners(Map.of("the host (HostCode)",
                List.of(new ErrorCode("CLASH_OWN", ErrorKind.BAD_INPUT, "A host code."))));
        assertThat(owners.claim("sandbox provider 'quota'", List.of(new ErrorCode("QUOTA_EXCEEDED", ErrorKind.SANDBOX, "A code."))))
                .isEmpty();
        try (URLClassLoader loader = withServices(ClashingStore.class)) {
            assertThatThrownBy(() -> SessionStores.discover(loader, owners))
                    .isInstanceOf(FactoryConfigurationException.class)
                    .hasMessageContaining("Error code CLASH_OWN is declared by the host (HostCode) and by session store 'clash'");
        }
        assertThat(owners.claim("session store 'other'", List.of(new ErrorCode("QUOTA_EXCEEDED", ErrorKind.SANDBOX, "A code."))))
                .containsExactly("Error code QUOTA_EXCEEDED is declared by sandbox provider 'quota' and by session store 'other';"
                        + " a module's codes need names no other module uses.");
    }

    @Test
    void aStoreWithoutCodesOfItsOwnIsFound() throws IOException {
        try (URLClassLoader loader = withServices()) {
            assertThat(SessionStores.discover(loader).require(StoreConfig.defaults()).type()).isEqualTo(StoreConfig.SQLITE);
        }
    }

    /** A loader over the test classes that lists {@code stores} in META-INF/services. */
    private URLClassLoader withServices(Class<?>... stores) throws IOException {
        Path services = Files.createDirectories(tmp.resolve("META-INF/services"));
        StringBuilder lines = new StringBuilder();
        for (Class<?> store : stores) {
            lines.append(store.getName()).append('\n');
        }
        Files.writeString(services.resolve(SessionStoreProvider.class.getName()), lines);
        return new URLClassLoader(new URL[] {tmp.toUri().toURL()}, SessionStoresTest.class.getClassLoader());
    }
}
