package io.sandboxfactory.tck;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestClassOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.sandboxfactory.api.SandboxProvider;

import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The provider conformance kit. Extend it in your provider's tests and say what to test:
 *
 * <pre>{@code
 * class TmpdirProviderContractTest extends ProviderContractTest<TmpdirConfig> {
 *     TmpdirProviderContractTest() {
 *         super(new TmpdirSandboxProvider(), dir -> new TmpdirConfig(dir.toString(), null));
 *     }
 * }
 * }</pre>
 *
 * <p>A provider that needs host objects, or a clone URL of its own, hands the kit a {@link
 * ProviderUnderTest} instead.
 *
 * <p>Every test opens the provider afresh with its own temporary directory and unique session ids,
 * and destroys every sandbox it made when it ends. The cases are grouped by rule; each failure
 * says which rule was broken and what to fix. Cases that need a capability the provider does not
 * declare ({@code FILES_SURVIVE_STOP}, {@code RECONNECT_ACROSS_PROCESSES}, {@code INVENTORY}) are
 * skipped with a message. The {@code Sessions} group runs whole sessions through {@code
 * SandboxFactory.openSession} (clone, branch, setup once, warm restart) on the provider; it needs
 * {@code git} in the sandbox and a provider registered in {@code META-INF/services}.
 *
 * <p>The command cases need a POSIX shell with {@code printf}, {@code cat}, {@code sleep}, {@code
 * kill} and {@code mkdir} in the sandbox. Every test is bounded by a generous timeout so that a
 * hanging provider fails instead of stalling the build.
 *
 * <p>The groups run in order, foundations first (registration, id-keyed identity, exec,
 * timeouts, environment), and a later case whose failure follows from a broken foundation says
 * so first ("Likely a consequence of: the sandbox is not id-keyed — see case …") instead of
 * giving its own fix. After the last case the kit prints a summary of the broken rules, root
 * causes first, and fails when no case ran at all.
 *
 * @param <C> the provider's config type
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@TestClassOrder(ClassOrderer.OrderAnnotation.class)
@ExtendWith(RootCauses.class)
public abstract class ProviderContractTest<C> {

    @TempDir
    Path tempDirectory;

    private final ProviderUnderTest<C> providerUnderTest;
    private ContractBench bench;
    private SessionBench sessions;

    /**
     * The common case: {@code provider}, configured for each test by {@code config} from a
     * directory of the test's own ({@link ProviderUnderTest#config}).
     */
    protected ProviderContractTest(SandboxProvider<C> provider, Function<Path, C> config) {
        this(ProviderUnderTest.of(provider, config));
    }

    /** The provider under test, its configuration and what else it needs from a host. */
    protected ProviderContractTest(ProviderUnderTest<C> providerUnderTest) {
        this.providerUnderTest = Objects.requireNonNull(providerUnderTest, "providerUnderTest");
    }

    @BeforeEach
    void openBench() {
        bench = new ContractBench(providerUnderTest, tempDirectory);
        sessions = new SessionBench(bench);
    }

    @AfterEach
    void closeBench() {
        try {
            if (sessions != null) {
                sessions.close();
            }
        } finally {
            if (bench != null) {
                bench.close();
            }
        }
    }

    ContractBench bench() {
        return bench;
    }

    @Nested
    @Order(1)
    @DisplayName("identity and create")
    class Creation extends CreationCases {
        @Override
        ContractBench bench() {
            return ProviderContractTest.this.bench();
        }
    }

    @Nested
    @Order(2)
    @DisplayName("id-keyed get-or-create")
    class IdKeyed extends IdKeyedCases {
        @Override
        ContractBench bench() {
            return ProviderContractTest.this.bench();
        }
    }

    @Nested
    @Order(6)
    @DisplayName("start and start hooks")
    class Start extends StartCases {
        @Override
        ContractBench bench() {
            return ProviderContractTest.this.bench();
        }
    }

    @Nested
    @Order(3)
    @DisplayName("executeCommand")
    class Commands extends CommandCases {
        @Override
        ContractBench bench() {
            return ProviderContractTest.this.bench();
        }
    }

    @Nested
    @Order(5)
    @DisplayName("command environment")
    class Environment extends EnvironmentCases {
        @Override
        ContractBench bench() {
            return ProviderContractTest.this.bench();
        }
    }

    @Nested
    @Order(4)
    @DisplayName("command timeouts")
    class Timeouts extends TimeoutCases {
        @Override
        ContractBench bench() {
            return ProviderContractTest.this.bench();
        }
    }

    @Nested
    @Order(7)
    @DisplayName("stop and destroy")
    class StopAndDestroy extends StopDestroyCases {
        @Override
        ContractBench bench() {
            return ProviderContractTest.this.bench();
        }
    }

    @Nested
    @Order(10)
    @DisplayName("file tools under a link-swap race")
    class FileRace extends FileRaceCases {
        @Override
        ContractBench bench() {
            return ProviderContractTest.this.bench();
        }
    }

    @Nested
    @Order(9)
    @DisplayName("a whole session through SandboxFactory.openSession")
    class Sessions extends SessionCases {
        @Override
        ContractBench bench() {
            return ProviderContractTest.this.bench();
        }

        @Override
        SessionBench sessions() {
            return ProviderContractTest.this.sessions;
        }
    }

    @Nested
    @Order(8)
    @DisplayName("declared capabilities")
    class Capabilities extends CapabilityCases {
        @Override
        ContractBench bench() {
            return ProviderContractTest.this.bench();
        }
    }
}
