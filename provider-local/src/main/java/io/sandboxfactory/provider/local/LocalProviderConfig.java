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
 * @param isolation {@value #NAMESPACES} (every process of a session inside one bubblewrap boundary) or
 *     {@value #NONE} (processes of the host user). Default: {@value #NAMESPACES} where bubblewrap
 *     works, else {@value #NONE} with a warning
 * @param network {@value #NONE} (a network namespace with nothing in it) or {@value #HOST} (the
 *     host's network); only with namespaces. Default: {@value #NONE}
 * @param volumes host directories an isolated session sees besides its own, each an absolute path
 *     bound at the same path, read-write, or read-only with {@code :ro} ({@code /srv/cache},
 *     {@code /srv/ref:ro}); a directory that does not exist is left out
 */
public record LocalProviderConfig(String root, List<String> passEnv, Boolean inheritEnvironment, Map<String, String> env,
                                  String isolation, String network, List<String> volumes) {

    /** {@code isolation}: one bubblewrap boundary per session. */
    public static final String NAMESPACES = "namespaces";
    /** {@code isolation}: none; {@code network}: none. */
    public static final String NONE = "none";
    /** {@code network}: the host's. */
    public static final String HOST = "host";

    public LocalProviderConfig {
        InvalidConfigValueException.Collector problems = new InvalidConfigValueException.Collector();
        if (root != null && !isRoot(root)) {
            problems.reject("root", root, "it must be an absolute path or start with ~/");
        }
        if (isolation != null && !List.of(NAMESPACES, NONE).contains(isolation)) {
            problems.reject("isolation", isolation, "it must be one of " + NAMESPACES + ", " + NONE);
        }
        if (network != null && !List.of(NONE, HOST).contains(network)) {
            problems.reject("network", network, "it must be one of " + NONE + ", " + HOST);
        }
        List<String> given = Objects.requireNonNullElse(volumes, List.of());
        for (int i = 0; i < given.size(); i++) {
            String volume = given.get(i);
            if (volume == null || !volume.startsWith("/") || volume.indexOf('\0') >= 0 || volume.endsWith(":")
                    || (volume.contains(":") && !volume.endsWith(":ro") && !volume.endsWith(":rw"))) {
                problems.reject("volumes[" + i + "]", volume, "it must be an absolute host path, optionally followed by :ro or :rw");
            }
        }
        EnvironmentVariables.check(env, "env", problems);
        problems.throwIfAny();
        passEnv = List.copyOf(Objects.requireNonNullElse(passEnv, List.of()));
        inheritEnvironment = Objects.requireNonNullElse(inheritEnvironment, Boolean.FALSE);
        env = Map.copyOf(Objects.requireNonNullElse(env, Map.of()));
        network = Objects.requireNonNullElse(network, NONE);
        volumes = List.copyOf(given);
    }

    /** Default isolation (namespaces where bubblewrap works) and network ({@value #NONE}). */
    public LocalProviderConfig(String root, List<String> passEnv, Boolean inheritEnvironment, Map<String, String> env) {
        this(root, passEnv, inheritEnvironment, env, null, null, null);
    }

    /** A copy with {@code isolation} and {@code network} set (null: the default). */
    public LocalProviderConfig withIsolation(String isolation, String network) {
        return new LocalProviderConfig(root, passEnv, inheritEnvironment, env, isolation, network, volumes);
    }

    /** A copy with {@code volumes} set. */
    public LocalProviderConfig withVolumes(List<String> volumes) {
        return new LocalProviderConfig(root, passEnv, inheritEnvironment, env, isolation, network, volumes);
    }

    private static boolean isRoot(String root) {
        return (root.startsWith("/") || root.equals("~") || root.startsWith("~/")) && root.indexOf('\0') < 0;
    }

    /** Shows env keys only: values may hold secrets. */
    @Override
    public String toString() {
        return "LocalProviderConfig[root=" + root + ", passEnv=" + passEnv + ", inheritEnvironment=" + inheritEnvironment
                + ", envKeys=" + env.keySet() + ", isolation=" + isolation + ", network=" + network + ", volumes=" + volumes + "]";
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
