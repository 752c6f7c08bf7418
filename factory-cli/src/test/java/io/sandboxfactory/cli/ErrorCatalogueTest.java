package io.sandboxfactory.cli;

import io.sandboxfactory.api.error.ErrorCode;
import io.sandboxfactory.api.error.ErrorCodeSupplier;
import io.sandboxfactory.api.error.ErrorKind;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.DiscoveredProvider;
import io.sandboxfactory.core.internal.discovery.ErrorCodeOwners;
import io.sandboxfactory.core.internal.discovery.ProviderDiscovery;
import io.sandboxfactory.store.api.SessionStoreProvider;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/errors.md is every module's codes, generated from the enums that define them (the
 * framework's {@link StandardErrorCode}, each provider's and store's {@code errorCodes()} as
 * discovery finds them on the CLI's class path, the CLI's {@link CliErrorCode}), so it cannot
 * drift from the code: this test fails when the file differs, and rewrites it with {@code
 * -Derrors.catalogue.write=true}:
 * {@code ./mvnw -B -o -pl factory-cli test -Dtest=ErrorCatalogueTest -Derrors.catalogue.write=true}.
 */
class ErrorCatalogueTest {

    private static final Path FILE = Path.of("..", "docs", "errors.md");

    /** The codes one module defines, under the heading the catalogue gives them. */
    record Module(String heading, List<? extends ErrorCodeSupplier> codes) {
    }

    @Test
    void theCatalogueIsEveryModulesCodes() throws Exception {
        String expected = catalogue(modules());
        if (Boolean.getBoolean("errors.catalogue.write")) {
            Files.writeString(FILE, expected, StandardCharsets.UTF_8);
        }
        assertThat(Files.readString(FILE, StandardCharsets.UTF_8))
                .as("docs/errors.md is stale: regenerate it with ./mvnw -B -o -pl factory-cli test -Dtest=ErrorCatalogueTest"
                        + " -Derrors.catalogue.write=true and commit it with the change")
                .isEqualTo(expected);
    }

    @Test
    void everyBundledModuleHasItsSectionAndNoNameIsTwoModules() {
        List<Module> modules = modules();

        assertThat(modules).extracting(Module::heading).containsExactly(
                "The framework (`StandardErrorCode`, factory-api)",
                "Provider `custom` (`CallbackErrorCode`)",
                "Provider `docker` (`DockerErrorCode`)",
                "Provider `kubernetes` (`KubernetesErrorCode`)",
                "Provider `local` (`LocalErrorCode`)",
                "Session store `postgres` (`PostgresErrorCode`)",
                "The CLI (`CliErrorCode`)");
        assertThat(clashes(modules)).isEmpty();
    }

    @Test
    void aNameTwoModulesDefineIsCaught() {
        ErrorCode rival = new ErrorCode("IMAGE_MISSING", ErrorKind.SANDBOX, "Another provider's image is missing.");
        List<Module> modules = new ArrayList<>(modules());
        modules.add(new Module("Provider `rival`", List.of(rival)));

        assertThat(clashes(modules)).containsExactly("Error code IMAGE_MISSING is declared by Provider `docker`"
                + " (`DockerErrorCode`) and by Provider `rival`; a module's codes need names no other module uses.");
    }

    @Test
    void eachKindsExitCodeAndEachCodesMeaningAreListed() {
        String catalogue = catalogue(modules());

        assertThat(catalogue).contains("| `BAD_INPUT` | " + ExitCodes.BAD_INPUT + " |")
                .contains("| `SANDBOX` | " + ExitCodes.INFRASTRUCTURE + " |")
                .contains("| `DOCKER_UNAVAILABLE` | INFRASTRUCTURE | No Docker engine answers at the configured host.")
                .contains("| `FAILED` | INFRASTRUCTURE | An exception without a code: a bug.");
    }

    /** The framework's codes, each discovered provider's and store's (sorted by name), the CLI's. */
    static List<Module> modules() {
        ClassLoader loader = ErrorCatalogueTest.class.getClassLoader();
        List<Module> modules = new ArrayList<>();
        modules.add(new Module("The framework (`StandardErrorCode`, factory-api)", List.of(StandardErrorCode.values())));
        new ProviderDiscovery().discover(loader).all().stream()
                .sorted(Comparator.comparing(DiscoveredProvider::name))
                .filter(provider -> !provider.provider().errorCodes().isEmpty())
                .forEach(provider -> modules.add(new Module("Provider `" + provider.name() + "` (`"
                        + definedBy(provider.provider().errorCodes()) + "`)", provider.provider().errorCodes())));
        ServiceLoader.load(SessionStoreProvider.class, loader).stream().map(ServiceLoader.Provider::get)
                .sorted(Comparator.comparing(SessionStoreProvider::type))
                .filter(store -> !store.errorCodes().isEmpty())
                .forEach(store -> modules.add(new Module("Session store `" + store.type() + "` (`"
                        + definedBy(store.errorCodes()) + "`)", store.errorCodes())));
        modules.add(new Module("The CLI (`CliErrorCode`)", List.of(CliErrorCode.values())));
        return modules;
    }

    private static String definedBy(List<? extends ErrorCodeSupplier> codes) {
        return codes.get(0).getClass().getSimpleName();
    }

    static List<String> clashes(List<Module> modules) {
        ErrorCodeOwners owners = new ErrorCodeOwners();
        List<String> clashes = new ArrayList<>();
        modules.stream().skip(1).forEach(module -> clashes.addAll(owners.claim(module.heading(), module.codes())));
        return clashes;
    }

    static String catalogue(List<Module> modules) {
        StringBuilder out = new StringBuilder("""
                # Error codes

                <!-- Generated from every module's codes by ErrorCatalogueTest (factory-cli); do not edit by hand.
                     Regenerate: ./mvnw -B -o -pl factory-cli test -Dtest=ErrorCatalogueTest -Derrors.catalogue.write=true -->

                Every failure the framework, the bundled providers and stores and the CLI report carries an
                `io.sandboxfactory.api.error.ErrorCode`: a name, a kind and a meaning. `SandboxException.errorCode()` (and
                `code()`, its name) has it, so has `InvalidInputException.errorCode()` for a rejected argument (still
                an `IllegalArgumentException`; its subclass `InvalidConfigValueException`, code `INVALID_CONFIG`, is
                how a provider's config record rejects values by their keys within its section). The name is what
                `--json` output, MCP tool errors (`"code"`, beside `"error"`, the sentence, and `"kind"`) and the
                command journal show.

                Each module defines the codes only it raises in an enum of its own implementing `ErrorCodeSupplier`
                (as Trino's plugins do); the framework's are `StandardErrorCode`, which also holds the lifecycle
                codes every provider may raise (`CREATE_FAILED`, `DESTROY_FAILED`, ...). A provider or store lists its
                enum's values in `errorCodes()`; discovery fails (`PROVIDER_DISCOVERY_FAILED`,
                `STORE_DISCOVERY_FAILED`) when a name is one the framework or another provider or store already
                uses. [Writing a provider](providers/writing-a-provider.md) shows one.

                Each code has a **kind** (`ErrorKind`), which says who can fix it and gives `factory`'s exit code:

                | Kind | `factory` exit code | Who can fix it |
                |---|---|---|
                """);
        for (ErrorKind kind : ErrorKind.values()) {
            out.append("| `").append(kind.name()).append("` | ").append(ExitCodes.of(kind)).append(" | ")
                    .append(whoFixes(kind)).append(" |\n");
        }
        out.append("""

                `run` and `exec` exit with the command's own exit code when the command ran (`124` after a
                timeout). `factory daemon status` exits `3` when no factory daemon runs for the state
                directory (as LSB's "program is not running"; nothing failed). The CLI takes the code of the
                outermost exception on the cause chain that carries one; an exception that carries none (an
                `IllegalArgumentException` or `NullPointerException` from a bug) is `FAILED`, exit `1`.
                """);
        for (Module module : modules) {
            out.append("\n## ").append(module.heading()).append("\n\n| Code | Kind | Meaning |\n|---|---|---|\n");
            for (ErrorCodeSupplier supplier : module.codes()) {
                ErrorCode code = supplier.toErrorCode();
                out.append("| `").append(code.name()).append("` | ").append(code.kind().name()).append(" | ")
                        .append(code.meaning().replace("|", "\\|")).append(" |\n");
            }
        }
        return out.toString();
    }

    private static String whoFixes(ErrorKind kind) {
        return switch (kind) {
            case BAD_INPUT -> "the caller: the input broke a rule (a name, a ref, a path, a flag, the config); change it and retry";
            case SANDBOX -> "the sandbox, or what runs in it, failed or refused the operation";
            case INFRASTRUCTURE -> "the engine, the cluster, the network, the session store, or a bug";
        };
    }
}
