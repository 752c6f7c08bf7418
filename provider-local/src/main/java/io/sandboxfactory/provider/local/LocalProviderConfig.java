package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.InvalidConfigValueException;
import io.sandboxfactory.api.support.EnvironmentVariables;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Configuration of the {@code local} provider ({@code providers.local} in the config file). Every
 * value is checked here, so all bad ones fail together while the config is read, before anything
 * is created.
 *
 * @param root directory holding one directory per session; {@code ~} expands to the user's home.
 *     Default: {@code <stateDir>/sessions}
 * @param passEnv host environment variables passed to commands besides {@code PATH} and {@code HOME}
 * @param inheritEnvironment pass the whole host environment (off by default: sessions should not see host secrets)
 * @param env variables set for every command, under the sandbox overlay and per-call env
 */
public record LocalProviderConfig(String root, List<String> passEnv, Boolean inheritEnvironment, Map<String, String> env) {

    public LocalProviderConfig {
        InvalidConfigValueException.Collector problems = new InvalidConfigValueException.Collector();
        if (root != null && !isRoot(root)) {
            problems.reject("root", root, "it must be an absolute path or start with ~/");
        }
        EnvironmentVariables.check(env, "env", problems);
        problems.throwIfAny();
        passEnv = List.copyOf(Objects.requireNonNullElse(passEnv, List.of()));
        inheritEnvironment = Objects.requireNonNullElse(inheritEnvironment, Boolean.FALSE);
        env = Map.copyOf(Objects.requireNonNullElse(env, Map.of()));
    }

    private static boolean isRoot(String root) {
        return (root.startsWith("/") || root.equals("~") || root.startsWith("~/")) && root.indexOf('\0') < 0;
    }

    /** Shows env keys only: values may hold secrets. */
    @Override
    public String toString() {
        return "LocalProviderConfig[root=" + root + ", passEnv=" + passEnv + ", inheritEnvironment=" + inheritEnvironment
                + ", envKeys=" + env.keySet() + "]";
    }

    /** All defaults. */
    public static LocalProviderConfig defaults() {
        return new LocalProviderConfig(null, null, null, null);
    }

    /** Defaults with the given root. */
    public static LocalProviderConfig withRoot(String root) {
        return new LocalProviderConfig(root, null, null, null);
    }
}
