package io.sandboxfactory.core.internal.config;

import io.sandboxfactory.api.error.StandardErrorCode;
import com.fasterxml.jackson.databind.JsonNode;
import io.sandboxfactory.api.InvalidConfigValueException;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.core.config.CacheConfig;
import io.sandboxfactory.core.config.DurationFormat;
import io.sandboxfactory.core.config.GitConfig;
import io.sandboxfactory.core.config.InvalidConfigException;
import io.sandboxfactory.core.config.EgressConfig;
import io.sandboxfactory.core.config.JournalConfig;
import io.sandboxfactory.core.config.Lifecycle;
import io.sandboxfactory.core.config.RepositoryDefaults;
import io.sandboxfactory.core.config.StoreConfig;
import io.sandboxfactory.core.config.TemplatesConfig;
import io.sandboxfactory.core.config.Timeouts;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The {@code FACTORY_*} variables that replace keys of the plain sections ({@code repository},
 * {@code timeouts}, {@code lifecycle}, {@code store}, {@code templates}, {@code cache}, {@code
 * journal}, {@code git.user}) for {@link ConfigResolver}: each method takes the file's section and
 * returns it with the variables applied. An invalid value is recorded in the problems, naming the
 * variable, and the section is kept as it was, so every error of a resolution comes out together.
 */
final class SectionOverrides {

    private final EnvironmentOverrides env;
    private final ConfigProblems problems;
    /** Parses a variable's value as a YAML scalar or flow list. */
    private final Function<String, JsonNode> scalar;

    SectionOverrides(EnvironmentOverrides env, ConfigProblems problems, Function<String, JsonNode> scalar) {
        this.env = env;
        this.problems = problems;
        this.scalar = scalar;
    }

    /** {@code repository:} with its variables, setup and teardown commands included. */
    RepositoryDefaults repository(RepositoryDefaults fromFile) {
        return commands(locations(fromFile));
    }

    private RepositoryDefaults locations(RepositoryDefaults fromFile) {
        RepositoryDefaults result = fromFile;
        Optional<String> template = env.get(EnvironmentOverrides.CLONE_URL_TEMPLATE);
        if (template.isPresent()) {
            result = fromEnv(EnvironmentOverrides.CLONE_URL_TEMPLATE, "repository", () -> new RepositoryDefaults(template.get(),
                    fromFile.defaultBaseBranch(), fromFile.setup(), fromFile.teardown(), fromFile.allowedFileRoots(), fromFile.templateInputs(), fromFile.setupSecrets(), fromFile.exposeToken(), fromFile.pushNamespace()), fromFile);
        }
        Optional<String> base = env.get(EnvironmentOverrides.DEFAULT_BASE_BRANCH);
        if (base.isPresent()) {
            RepositoryDefaults current = result;
            result = fromEnv(EnvironmentOverrides.DEFAULT_BASE_BRANCH, "repository", () -> new RepositoryDefaults(current.cloneUrlTemplate(),
                    Optional.of(base.get()), current.setup(), current.teardown(), current.allowedFileRoots(), current.templateInputs(), current.setupSecrets(), current.exposeToken(), current.pushNamespace()), current);
        }
        Optional<String> roots = env.get(EnvironmentOverrides.ALLOWED_FILE_ROOTS);
        if (roots.isPresent()) {
            RepositoryDefaults current = result;
            List<String> list = Arrays.stream(roots.get().split(":")).map(String::trim).filter(r -> !r.isEmpty()).toList();
            result = fromEnv(EnvironmentOverrides.ALLOWED_FILE_ROOTS, "repository", () -> new RepositoryDefaults(current.cloneUrlTemplate(),
                    current.defaultBaseBranch(), current.setup(), current.teardown(), list, current.templateInputs(), current.setupSecrets(), current.exposeToken(), current.pushNamespace()), current);
        }
        Optional<String> inputs = env.get(EnvironmentOverrides.TEMPLATE_INPUTS);
        if (inputs.isPresent()) {
            RepositoryDefaults current = result;
            List<String> list = Arrays.stream(inputs.get().split(":")).map(String::trim).filter(f -> !f.isEmpty()).toList();
            result = fromEnv(EnvironmentOverrides.TEMPLATE_INPUTS, "repository", () -> new RepositoryDefaults(current.cloneUrlTemplate(),
                    current.defaultBaseBranch(), current.setup(), current.teardown(), current.allowedFileRoots(), list, current.setupSecrets(), current.exposeToken(), current.pushNamespace()), current);
        }
        return result;
    }

    /**
     * {@code FACTORY_REPOSITORY_SETUP}, {@code _TEARDOWN} and {@code _SETUP_SECRETS}: one command (name), or several as a YAML
     * flow list {@code [npm ci, make]}.
     */
    private RepositoryDefaults commands(RepositoryDefaults fromFile) {
        RepositoryDefaults result = fromFile;
        Optional<String> setup = env.get(EnvironmentOverrides.SETUP);
        if (setup.isPresent()) {
            result = fromEnv(EnvironmentOverrides.SETUP, "repository", () -> new RepositoryDefaults(fromFile.cloneUrlTemplate(),
                    fromFile.defaultBaseBranch(), commandList(setup.get()), fromFile.teardown(), fromFile.allowedFileRoots(),
                    fromFile.templateInputs(), fromFile.setupSecrets(), fromFile.exposeToken(), fromFile.pushNamespace()), fromFile);
        }
        Optional<String> teardown = env.get(EnvironmentOverrides.TEARDOWN);
        if (teardown.isPresent()) {
            RepositoryDefaults current = result;
            result = fromEnv(EnvironmentOverrides.TEARDOWN, "repository", () -> new RepositoryDefaults(current.cloneUrlTemplate(),
                    current.defaultBaseBranch(), current.setup(), commandList(teardown.get()), current.allowedFileRoots(),
                    current.templateInputs(), current.setupSecrets(), current.exposeToken(), current.pushNamespace()), current);
        }
        Optional<String> secrets = env.get(EnvironmentOverrides.SETUP_SECRETS);
        if (secrets.isPresent()) {
            RepositoryDefaults current = result;
            result = fromEnv(EnvironmentOverrides.SETUP_SECRETS, "repository", () -> new RepositoryDefaults(current.cloneUrlTemplate(),
                    current.defaultBaseBranch(), current.setup(), current.teardown(), current.allowedFileRoots(), current.templateInputs(),
                    commandList(secrets.get()), current.exposeToken(), current.pushNamespace()), current);
        }
        return gateway(result);
    }

    /** {@code FACTORY_REPOSITORY_EXPOSE_TOKEN} ({@code true}/{@code false}) and {@code _PUSH_NAMESPACE}. */
    private RepositoryDefaults gateway(RepositoryDefaults fromFile) {
        RepositoryDefaults result = fromFile;
        Optional<String> expose = env.get(EnvironmentOverrides.EXPOSE_TOKEN);
        if (expose.isPresent()) {
            result = fromEnv(EnvironmentOverrides.EXPOSE_TOKEN, "repository", () -> new RepositoryDefaults(fromFile.cloneUrlTemplate(),
                    fromFile.defaultBaseBranch(), fromFile.setup(), fromFile.teardown(), fromFile.allowedFileRoots(), fromFile.templateInputs(),
                    fromFile.setupSecrets(), flag(expose.get()), fromFile.pushNamespace()), fromFile);
        }
        Optional<String> namespace = env.get(EnvironmentOverrides.PUSH_NAMESPACE);
        if (namespace.isPresent()) {
            RepositoryDefaults current = result;
            result = fromEnv(EnvironmentOverrides.PUSH_NAMESPACE, "repository", () -> new RepositoryDefaults(current.cloneUrlTemplate(),
                    current.defaultBaseBranch(), current.setup(), current.teardown(), current.allowedFileRoots(), current.templateInputs(),
                    current.setupSecrets(), current.exposeToken(), Optional.of(namespace.get())), current);
        }
        return result;
    }

    private List<String> commandList(String text) {
        JsonNode node = scalar.apply(text);
        if (!node.isArray()) {
            return List.of(text);
        }
        List<String> commands = new ArrayList<>();
        node.forEach(element -> commands.add(element.asText()));
        return commands;
    }

    TemplatesConfig templates(TemplatesConfig fromFile) {
        Optional<String> autoBuild = env.get(EnvironmentOverrides.TEMPLATES_AUTO_BUILD);
        return autoBuild.isEmpty() ? fromFile
                : fromEnv(EnvironmentOverrides.TEMPLATES_AUTO_BUILD, "templates", () -> new TemplatesConfig(flag(autoBuild.get())), fromFile);
    }

    CacheConfig cache(CacheConfig fromFile) {
        CacheConfig result = fromFile;
        Optional<String> enabled = env.get(EnvironmentOverrides.CACHE_ENABLED);
        if (enabled.isPresent()) {
            result = fromEnv(EnvironmentOverrides.CACHE_ENABLED, "cache", () -> new CacheConfig(flag(enabled.get()), fromFile.maxIdle()),
                    fromFile);
        }
        Optional<String> maxIdle = env.get(EnvironmentOverrides.CACHE_MAX_IDLE);
        if (maxIdle.isPresent()) {
            CacheConfig current = result;
            result = fromEnv(EnvironmentOverrides.CACHE_MAX_IDLE, "cache",
                    () -> new CacheConfig(current.enabled(), DurationFormat.parse(maxIdle.get())), current);
        }
        return result;
    }

    /** Only the words YAML and JSON write for a boolean: a typo must not silently turn a feature off. */
    private static boolean flag(String text) {
        return switch (text.strip()) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("'" + text + "' is neither true nor false.");
        };
    }

    /** Each {@code FACTORY_TIMEOUTS_*} variable and how it changes the {@code timeouts} section. */
    private static final Map<String, BiFunction<Timeouts, Duration, Timeouts>> TIMEOUT_VARIABLES = Map.of(
            EnvironmentOverrides.SETUP_TIMEOUT, Timeouts::withSetup, EnvironmentOverrides.COMMAND_TIMEOUT, Timeouts::withCommand,
            EnvironmentOverrides.PROBE_TIMEOUT, Timeouts::withProbe, EnvironmentOverrides.NETWORK_TIMEOUT, Timeouts::withNetwork,
            EnvironmentOverrides.CHECKOUT_TIMEOUT, Timeouts::withCheckout, EnvironmentOverrides.TEARDOWN_TIMEOUT, Timeouts::withTeardown);

    Timeouts timeouts(Timeouts fromFile) {
        Timeouts result = fromFile;
        for (Map.Entry<String, BiFunction<Timeouts, Duration, Timeouts>> variable : new TreeMap<>(TIMEOUT_VARIABLES).entrySet()) {
            Optional<String> value = env.get(variable.getKey());
            if (value.isPresent()) {
                Timeouts current = result;
                result = fromEnv(variable.getKey(), "timeouts", () -> variable.getValue().apply(current, DurationFormat.parse(value.get())),
                        current);
            }
        }
        return result;
    }

    Lifecycle lifecycle(Lifecycle fromFile) {
        Lifecycle result = fromFile;
        Optional<String> stop = env.get(EnvironmentOverrides.STOP_AFTER_IDLE);
        if (stop.isPresent()) {
            result = fromEnv(EnvironmentOverrides.STOP_AFTER_IDLE, "lifecycle", () -> new Lifecycle(Optional.of(DurationFormat.parse(stop.get())),
                    fromFile.deleteAfterIdle()), fromFile);
        }
        Optional<String> delete = env.get(EnvironmentOverrides.DELETE_AFTER_IDLE);
        if (delete.isPresent()) {
            Lifecycle current = result;
            result = fromEnv(EnvironmentOverrides.DELETE_AFTER_IDLE, "lifecycle", () -> new Lifecycle(current.stopAfterIdle(),
                    Optional.of(DurationFormat.parse(delete.get()))), current);
        }
        return result;
    }

    JournalConfig journal(JournalConfig fromFile) {
        Optional<String> size = env.get(EnvironmentOverrides.JOURNAL_MAX_ENTRIES);
        if (size.isEmpty()) {
            return fromFile;
        }
        return fromEnv(EnvironmentOverrides.JOURNAL_MAX_ENTRIES, "journal", () -> {
            try {
                return new JournalConfig(Integer.valueOf(size.get().strip()));
            } catch (NumberFormatException e) {
                throw new InvalidInputException(StandardErrorCode.INVALID_CONFIG, "'" + size.get() + "' is not a whole number of entries.", e);
            }
        }, fromFile);
    }

    /** Each {@code FACTORY_STORE_<KEY>} variable replaces that key of the {@code store:} section. */
    StoreConfig store(StoreConfig fromFile) {
        StoreConfig result = fromFile;
        for (String key : StoreConfig.KEYS) {
            String variable = EnvironmentOverrides.storeVariable(key);
            Optional<String> value = env.get(variable);
            if (value.isPresent()) {
                StoreConfig current = result;
                result = fromEnv(variable, "store", () -> current.with(key, value.get()), current);
            }
        }
        return result;
    }

    /**
     * {@code build}'s value, or {@code unchanged} after recording why the variable's value is invalid;
     * a value a record rejects is named by its key under {@code section}.
     */
    private <T> T fromEnv(String variable, String section, Supplier<T> build, T unchanged) {
        return problems.check(() -> {
            try {
                return build.get();
            } catch (InvalidConfigValueException e) {
                throw new InvalidConfigException(e.problems().stream().map(p -> ConfigErrors.rejected(ConfigErrors.join(section, p.key()),
                        p, key -> "from environment variable " + variable)).toList(), e);
            } catch (IllegalArgumentException e) {
                throw ConfigErrors.invalid("Invalid value from environment variable " + variable + ": " + e.getMessage(), e);
            }
        }, () -> unchanged);
    }

    /** {@code FACTORY_EGRESS_MODE}, {@code _ALLOW} (one pattern, or several as {@code [a.test, *.b.test]}) and {@code _PROXY_ADDRESS}. */
    EgressConfig egress(EgressConfig fromFile) {
        EgressConfig result = fromFile;
        Optional<String> mode = env.get(EnvironmentOverrides.EGRESS_MODE);
        if (mode.isPresent()) {
            result = fromEnv(EnvironmentOverrides.EGRESS_MODE, "egress", () -> new EgressConfig(mode.get().strip(), fromFile.allow(),
                    fromFile.resolve(), fromFile.proxyAddress()), fromFile);
        }
        Optional<String> allow = env.get(EnvironmentOverrides.EGRESS_ALLOW);
        if (allow.isPresent()) {
            EgressConfig current = result;
            result = fromEnv(EnvironmentOverrides.EGRESS_ALLOW, "egress", () -> new EgressConfig(current.mode(), commandList(allow.get()),
                    current.resolve(), current.proxyAddress()), current);
        }
        Optional<String> proxy = env.get(EnvironmentOverrides.EGRESS_PROXY_ADDRESS);
        if (proxy.isPresent()) {
            EgressConfig current = result;
            result = fromEnv(EnvironmentOverrides.EGRESS_PROXY_ADDRESS, "egress", () -> new EgressConfig(current.mode(), current.allow(),
                    current.resolve(), Optional.of(proxy.get().strip())), current);
        }
        return result;
    }

    /** {@code git.user} with {@code FACTORY_GIT_USER_NAME} and {@code _EMAIL} over the file's parts. */
    GitConfig.User gitUser(GitConfig.User file) {
        Optional<String> name = env.get(EnvironmentOverrides.GIT_USER_NAME);
        Optional<String> email = env.get(EnvironmentOverrides.GIT_USER_EMAIL);
        GitConfig.User configured = file;
        if (name.isPresent()) {
            configured = fromEnv(EnvironmentOverrides.GIT_USER_NAME, "git.user", () -> new GitConfig.User(name.get(), file.email()), file);
        }
        if (email.isPresent()) {
            GitConfig.User current = configured;
            configured = fromEnv(EnvironmentOverrides.GIT_USER_EMAIL, "git.user", () -> new GitConfig.User(current.name(), email.get()),
                    current);
        }
        return configured;
    }
}
