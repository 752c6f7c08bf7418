package io.sandboxfactory.core.internal.wiring;

import io.sandboxfactory.api.error.ErrorCode;
import io.sandboxfactory.api.error.ErrorKind;
import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.InvalidConfigValueException;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.ProviderContext;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.SandboxProvider;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.FactoryConfigurationException;
import io.sandboxfactory.core.internal.config.ConfigOrigins;
import io.sandboxfactory.core.config.InvalidConfigException;
import io.sandboxfactory.api.testing.TestProviderContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** A provider that fails to open is our error naming it; its own code, if it gave one, decides the kind. */
class ProviderOpenerCodesTest {

    @TempDir
    Path tmp;

    private FactoryConfigurationException openFailing(RuntimeException failure) {
        SandboxProvider<String> provider = new SandboxProvider<>() {
            @Override
            public String name() {
                return "failing";
            }

            @Override
            public Class<String> configType() {
                return String.class;
            }

            @Override
            public FactorySandbox open(String config, ProviderContext context) {
                throw failure;
            }
        };
        return catchThrowableOfType(FactoryConfigurationException.class,
                () -> ProviderOpener.open("failing", provider, "config", new TestProviderContext(tmp, "owner"),
                        new ConfigOrigins(Map.of("providers.failing.root", "from environment variable FACTORY_PROVIDERS_FAILING_ROOT"),
                                "(not set in /etc/factory.yaml, so its default)")));
    }

    @Test
    void anUncodedFailureIsProviderOpenFailedOfKindInfrastructure() {
        FactoryConfigurationException e = openFailing(new IllegalArgumentException("index out of range"));
        assertThat(e.errorCode()).isEqualTo(StandardErrorCode.PROVIDER_OPEN_FAILED.toErrorCode());
        assertThat(e.kind()).isEqualTo(ErrorKind.INFRASTRUCTURE);
        assertThat(e).hasMessage("Sandbox provider 'failing' could not be opened: index out of range");
    }

    @Test
    void aRejectedConfigValueStaysBadInput() {
        FactoryConfigurationException e = openFailing(new InvalidInputException(StandardErrorCode.INVALID_CONFIG,
                "providers.failing.root 'x' is invalid; it must be an absolute path."));
        assertThat(e.errorCode()).isEqualTo(StandardErrorCode.INVALID_CONFIG.toErrorCode());
        assertThat(e.kind()).isEqualTo(ErrorKind.BAD_INPUT);
        assertThat(e.getMessage()).contains("'failing'").contains("providers.failing.root");
    }

    @Test
    void valuesRejectedByOpenAreNamedUnderTheSectionWithTheirSources() {
        InvalidConfigValueException.Collector problems = new InvalidConfigValueException.Collector();
        problems.reject("root", "tmp", "it must be an absolute path");
        problems.reject("env.TOKEN", null, "it must be set");
        FactoryConfigurationException e = openFailing(catchThrowableOfType(InvalidConfigValueException.class, problems::throwIfAny));

        assertThat(e).isInstanceOf(InvalidConfigException.class);
        assertThat(e.kind()).isEqualTo(ErrorKind.BAD_INPUT);
        assertThat(((InvalidConfigException) e).problems()).containsExactly(
                "Invalid value 'tmp' for configuration key 'providers.failing.root' from environment variable"
                        + " FACTORY_PROVIDERS_FAILING_ROOT; it must be an absolute path.",
                "Invalid value for configuration key 'providers.failing.env.TOKEN' (not set in /etc/factory.yaml, so its default);"
                        + " it must be set.");
    }

    @Test
    void aProvidersOwnCodeIsKept() {
        ErrorCode engineDown = new ErrorCode("ENGINE_DOWN", ErrorKind.INFRASTRUCTURE, "The provider's engine does not answer.");
        FactoryConfigurationException e = openFailing(new SandboxException(engineDown, "no engine at unix:///x"));
        assertThat(e.errorCode()).isEqualTo(engineDown);
        assertThat(e.kind()).isEqualTo(ErrorKind.INFRASTRUCTURE);
    }
}
