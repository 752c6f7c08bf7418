package io.sandboxfactory.tck;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.api.capability.SandboxInventory;
import io.sandboxfactory.api.capability.SandboxListing;
import io.sandboxfactory.api.SandboxProvider;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * One test's view of the provider under test: opens it (again, when a case plays a second
 * process), hands out unique session ids, creates sandboxes and runs probe commands. Everything
 * it made is destroyed and closed by {@link #close()}, so a run leaves no sandboxes behind.
 */
final class ContractBench implements AutoCloseable {

    /** Guards probe commands against a hanging sandbox; generous, it is no performance bound. */
    static final Duration PROBE_TIMEOUT = Duration.ofMinutes(2);

    private final ProviderUnderTest<?> underTest;
    private final Path workDirectory;
    private final Path stateDirectory;
    private final String owner;
    private final List<FactorySandbox> opened = new ArrayList<>();
    private final List<MastraSandbox<?>> sandboxes = new ArrayList<>();
    private FactorySandbox first;

    ContractBench(ProviderUnderTest<?> underTest, Path tempDirectory) {
        this.underTest = underTest;
        this.workDirectory = createDirectory(tempDirectory.resolve("provider"));
        this.stateDirectory = createDirectory(tempDirectory.resolve("state"));
        this.owner = "tck-" + shortRandom();
    }

    private static Path createDirectory(Path dir) {
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String shortRandom() {
        return UUID.randomUUID().toString().substring(0, 8);
    }

    SandboxProvider<?> provider() {
        return underTest.provider();
    }

    ProviderUnderTest<?> underTest() {
        return underTest;
    }

    Path workDirectory() {
        return workDirectory;
    }

    Path stateDirectory() {
        return stateDirectory;
    }

    String owner() {
        return owner;
    }

    /** The provider instance of this test, opened on first use. */
    synchronized FactorySandbox factory() {
        if (first == null) {
            first = reopen();
        }
        return first;
    }

    /** A new provider instance on the same configuration, as a second process would open it. */
    synchronized FactorySandbox reopen() {
        FactorySandbox factory = open(underTest);
        opened.add(factory);
        return factory;
    }

    private <C> FactorySandbox open(ProviderUnderTest<C> provider) {
        C config = provider.config(workDirectory);
        KitProviderContext context = new KitProviderContext(stateDirectory, owner, provider.hostObjects(workDirectory));
        FactorySandbox factory = provider.provider().open(config, context);
        if (factory == null) {
            throw new IllegalStateException("Provider '" + provider.provider().name() + "' returned null from open(config, context).");
        }
        return factory;
    }

    Set<SandboxCapability> capabilities() {
        return factory().capabilities();
    }

    boolean declares(SandboxCapability capability) {
        return capabilities().contains(capability);
    }

    String providerName() {
        return provider().name();
    }

    /** A session id no other test (or earlier run) uses: {@code tck-<purpose>-<random>}. */
    String newSessionId(String purpose) {
        return "tck-" + purpose + "-" + shortRandom();
    }

    /** A new, unstarted sandbox for {@code sessionId} from this test's provider instance. */
    MastraSandbox<?> create(String sessionId) {
        return create(factory(), FactorySandboxContext.of(sessionId));
    }

    /** A new, unstarted sandbox from {@code factory}; destroyed when the test ends. */
    synchronized MastraSandbox<?> create(FactorySandbox factory, FactorySandboxContext ctx) {
        MastraSandbox<?> sandbox = factory.create(ctx);
        if (sandbox != null) {
            sandboxes.add(sandbox);
        }
        return sandbox;
    }

    /** Runs {@code command} with the probe timeout. */
    static CommandResult run(MastraSandbox<?> sandbox, String command) {
        return sandbox.executeCommand(command, List.of(), CommandOptions.builder().timeout(PROBE_TIMEOUT).build());
    }

    /**
     * Runs a command the kit needs in order to check a rule (write a file, read it back); a failure
     * breaks {@code rule} with the command's output.
     */
    static String probe(ContractRule rule, MastraSandbox<?> sandbox, String command) {
        CommandResult result = rule.attempt("running '" + command + "' in sandbox '" + sandbox.id() + "'", () -> run(sandbox, command));
        rule.require(result.exitCode() == 0, () -> "the command '" + command + "' in sandbox '" + sandbox.id() + "' exited with "
                + result.exitCode() + " (stdout '" + result.stdout().strip() + "', stderr '" + result.stderr().strip() + "')");
        return result.stdout();
    }

    /** How an action ended, for a message: "succeeded" or "threw <class>: <message>". */
    static String describe(RuntimeException failure) {
        return failure == null ? "succeeded" : "threw " + failure.getClass().getName() + ": " + failure.getMessage();
    }

    /** The inventory listings of {@code sessionId}; empty when the provider has no inventory. */
    List<SandboxListing> listingsOf(String sessionId) {
        if (!(factory() instanceof SandboxInventory inventory)) {
            return List.of();
        }
        return inventory.listSandboxes().stream().filter(l -> l.sessionId().equals(sessionId)).toList();
    }

    Optional<SandboxInventory> inventory() {
        return factory() instanceof SandboxInventory inventory ? Optional.of(inventory) : Optional.empty();
    }

    /** Destroys every sandbox made through this bench and closes every provider instance; best effort. */
    @Override
    public synchronized void close() {
        for (MastraSandbox<?> sandbox : sandboxes) {
            try {
                sandbox.destroy();
            } catch (RuntimeException ignored) {
                // A case may leave a sandbox in any state; the next instance's destroy covers the physical one.
            }
        }
        for (FactorySandbox factory : opened) {
            try {
                factory.close();
            } catch (RuntimeException ignored) {
                // Closing releases clients only; a failure here cannot affect the verdict.
            }
        }
    }
}
