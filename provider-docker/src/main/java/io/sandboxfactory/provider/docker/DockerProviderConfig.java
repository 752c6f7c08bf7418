package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.ErrorCode;
import io.sandboxfactory.api.InvalidInputException;

import io.sandboxfactory.api.support.EnvironmentVariables;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;

/**
 * Configuration of the {@code docker} provider ({@code providers.docker} in the config file).
 * Absent fields get their defaults; every value is checked here, so a bad one fails when the
 * config is read, with one sentence naming the field, the value and the rule.
 *
 * <p>The engine is reached with these values only: {@code DOCKER_HOST}, {@code
 * ~/.docker-java.properties}, Docker contexts and JVM system properties are ignored unless
 * {@code useEnvironment} is true.
 *
 * @param host the engine endpoint, {@code unix://}, {@code tcp://} or {@code npipe://}. Default
 *     {@value #DEFAULT_HOST}. Plain {@code tcp://} only; TLS needs {@code useEnvironment}.
 * @param image the image sandboxes run. Default {@value #DEFAULT_IMAGE}, the busybox + git image
 *     {@code scripts/docker-up.sh} builds; any image with {@code /bin/sh} works, and {@code git}
 *     for sessions on a repository. The provider never pulls: the image must be on the engine.
 * @param cpus CPU limit per sandbox (fractions allowed); none by default. A session's own {@code
 *     SandboxResources} win.
 * @param memory memory limit per sandbox, bytes or with a binary unit ({@code 512m}, {@code 2g});
 *     none by default. A session's own {@code SandboxResources} win.
 * @param networkMode the container network. Default {@value #DEFAULT_NETWORK_MODE}: no network at
 *     all (the provider then declares {@code NETWORK_ISOLATION}). {@code host}, {@code bridge} or a
 *     network name work too.
 * @param labels extra labels on every container; keys under {@code io.sandboxfactory.} are reserved
 * @param workingDirectory the absolute directory commands run in by default, created with the
 *     container. Default {@value #DEFAULT_WORKING_DIRECTORY}
 * @param apiVersion pins the Engine API version ({@code 1.41}); by default it is negotiated from the
 *     engine's {@code /version}: the engine's version, capped at the newest docker-java knows
 * @param useEnvironment when true, docker-java's own settings are honoured: {@code DOCKER_HOST},
 *     {@code DOCKER_TLS_VERIFY} and {@code DOCKER_CERT_PATH} from the environment, JVM system
 *     properties or {@code ~/.docker-java.properties}; a host found there wins over {@code host}.
 *     Docker contexts are not consulted. Default false
 * @param env variables set for every command, under the sandbox overlay and the per-call env (the
 *     image's own environment is below them all)
 * @param init run Docker's init process as PID 1 so orphaned processes are reaped. Default true;
 *     turn off for engines without {@code docker-init}
 * @param volumes host directories mounted into every new container, in Docker's {@code -v}
 *     spelling {@code /host/path:/container/path[:ro|:rw]} (both absolute, default {@code rw}, one
 *     mount per container path). None by default. A sandbox has no network by default, so a
 *     repository named by a host path is cloned through such a mount: mount the directory that
 *     holds it at the same path, read-only ({@code /srv/git:/srv/git:ro}). Mounts are decided when
 *     a container is created; a container that already exists keeps the mounts it was made with.
 * @param execChannel run commands through one long-lived exec per sandbox that reads requests on
 *     its stdin (see {@link ExecChannel}) instead of one exec per command, which the engine makes
 *     slow. Default true. A command that finds the channel busy with another command, or unable to
 *     open, runs as an exec of its own; results are the same either way
 */
public record DockerProviderConfig(
        String host,
        String image,
        Double cpus,
        String memory,
        String networkMode,
        Map<String, String> labels,
        String workingDirectory,
        String apiVersion,
        Boolean useEnvironment,
        Map<String, String> env,
        Boolean init,
        List<String> volumes,
        Boolean execChannel) {

    public static final String DEFAULT_HOST = "unix:///var/run/docker.sock";
    public static final String DEFAULT_IMAGE = "sandbox-factory/test-base:latest";
    public static final String DEFAULT_NETWORK_MODE = "none";
    public static final String DEFAULT_WORKING_DIRECTORY = "/workspace";

    /** Label keys under this prefix belong to the provider. */
    static final String RESERVED_LABEL_PREFIX = "io.sandboxfactory.";

    private static final String FIELD = "providers.docker.";
    private static final Pattern API_VERSION = Pattern.compile("1\\.\\d{1,3}");
    private static final Pattern NETWORK_MODE = Pattern.compile("[a-zA-Z0-9][a-zA-Z0-9_.:-]*");

    public DockerProviderConfig {
        host = Objects.requireNonNullElse(host, DEFAULT_HOST).trim();
        image = Objects.requireNonNullElse(image, DEFAULT_IMAGE).trim();
        networkMode = Objects.requireNonNullElse(networkMode, DEFAULT_NETWORK_MODE).trim();
        labels = checkedCopy(labels, DockerProviderConfig::checkLabel);
        workingDirectory = Objects.requireNonNullElse(workingDirectory, DEFAULT_WORKING_DIRECTORY).trim();
        apiVersion = apiVersion == null || apiVersion.isBlank() ? null : apiVersion.trim();
        useEnvironment = Objects.requireNonNullElse(useEnvironment, Boolean.FALSE);
        env = checkedCopy(env, (name, value) -> EnvironmentVariables.requireValid(name, value, FIELD + "env"));
        init = Objects.requireNonNullElse(init, Boolean.TRUE);
        volumes = checkedVolumes(volumes);
        execChannel = Objects.requireNonNullElse(execChannel, Boolean.TRUE);

        checkHost(host);
        if (image.isEmpty() || image.chars().anyMatch(Character::isWhitespace)) {
            throw new InvalidInputException(ErrorCode.INVALID_CONFIG, FIELD + "image '" + image + "' is invalid; it must be an image reference"
                    + " without spaces, such as alpine/git:latest.");
        }
        if (cpus != null && !(cpus > 0 && cpus <= 1024)) {
            throw new InvalidInputException(ErrorCode.INVALID_CONFIG, FIELD + "cpus " + cpus + " is invalid; it must be a number of CPUs above 0"
                    + " and at most 1024, such as 0.5 or 2.");
        }
        if (memory != null) {
            MemorySize.parse(memory, FIELD + "memory");
        }
        if (!NETWORK_MODE.matcher(networkMode).matches()) {
            throw new InvalidInputException(ErrorCode.INVALID_CONFIG, FIELD + "networkMode '" + networkMode + "' is invalid; it must be none,"
                    + " host, bridge or a network name made of letters, digits, '_', '.', ':' and '-'.");
        }
        checkWorkingDirectory(workingDirectory, FIELD + "workingDirectory");
        if (apiVersion != null && !API_VERSION.matcher(apiVersion).matches()) {
            throw new InvalidInputException(ErrorCode.INVALID_CONFIG, FIELD + "apiVersion '" + apiVersion + "' is invalid; it must look like"
                    + " 1.41, or be left out to negotiate it with the engine.");
        }
    }

    /** The config as it was before {@code volumes}: no mounts. */
    public DockerProviderConfig(String host, String image, Double cpus, String memory, String networkMode,
                                Map<String, String> labels, String workingDirectory, String apiVersion,
                                Boolean useEnvironment, Map<String, String> env, Boolean init) {
        this(host, image, cpus, memory, networkMode, labels, workingDirectory, apiVersion, useEnvironment, env, init, null);
    }

    /** The config as it was before {@code execChannel}: the channel at its default. */
    public DockerProviderConfig(String host, String image, Double cpus, String memory, String networkMode,
                                Map<String, String> labels, String workingDirectory, String apiVersion,
                                Boolean useEnvironment, Map<String, String> env, Boolean init, List<String> volumes) {
        this(host, image, cpus, memory, networkMode, labels, workingDirectory, apiVersion, useEnvironment, env, init,
                volumes, null);
    }

    /** Every field at its default. */
    public static DockerProviderConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder pre-filled with this config. */
    public Builder toBuilder() {
        return new Builder().host(host).image(image).cpus(cpus).memory(memory).networkMode(networkMode)
                .labels(labels).workingDirectory(workingDirectory).apiVersion(apiVersion)
                .useEnvironment(useEnvironment).env(env).init(init).volumes(volumes).execChannel(execChannel);
    }

    /** The memory limit in bytes, when configured. */
    public Optional<Long> memoryBytes() {
        return Optional.ofNullable(memory).map(m -> MemorySize.parse(m, FIELD + "memory"));
    }

    /** The parsed {@link #volumes()}. */
    List<BindMount> bindMounts() {
        return volumes.stream().map(v -> BindMount.parse(v, FIELD + "volumes")).toList();
    }

    /** The pinned API version; empty means negotiate. */
    public Optional<String> pinnedApiVersion() {
        return Optional.ofNullable(apiVersion);
    }

    /** Whether sandboxes have no network. */
    public boolean networkIsolated() {
        return DEFAULT_NETWORK_MODE.equals(networkMode);
    }

    /** Shows env keys only: values may hold secrets. */
    @Override
    public String toString() {
        return "DockerProviderConfig[host=" + host + ", image=" + image + ", cpus=" + cpus + ", memory=" + memory
                + ", networkMode=" + networkMode + ", labels=" + labels + ", workingDirectory=" + workingDirectory
                + ", apiVersion=" + (apiVersion == null ? "<negotiated>" : apiVersion) + ", useEnvironment="
                + useEnvironment + ", envKeys=" + env.keySet() + ", init=" + init + ", volumes=" + volumes
                + ", execChannel=" + execChannel + "]";
    }

    static void checkWorkingDirectory(String dir, String what) {
        if (dir.isEmpty() || !dir.startsWith("/") || dir.indexOf('\0') >= 0 || dir.contains("\n")) {
            throw new InvalidInputException(ErrorCode.INVALID_CONFIG, what + " '" + dir + "' is invalid; it must be an absolute path inside"
                    + " the container, such as /workspace.");
        }
    }

    private static void checkHost(String host) {
        URI uri;
        try {
            uri = new URI(host);
        } catch (URISyntaxException e) {
            uri = null;
        }
        String scheme = uri == null ? null : uri.getScheme();
        boolean ok = scheme != null && switch (scheme) {
            case "unix", "npipe" -> uri.getPath() != null && !uri.getPath().isEmpty();
            case "tcp" -> uri.getHost() != null && uri.getPort() > 0;
            default -> false;
        };
        if (!ok) {
            throw new InvalidInputException(ErrorCode.INVALID_CONFIG, FIELD + "host '" + host + "' is invalid; it must be unix:///path/to/docker.sock,"
                    + " tcp://host:port or npipe:////./pipe/name.");
        }
    }

    private static Map<String, String> checkedCopy(Map<String, String> map, BiConsumer<String, String> check) {
        if (map == null) {
            return Map.of();
        }
        Map<String, String> copy = new LinkedHashMap<>();
        map.forEach((key, value) -> {
            check.accept(key, value);
            copy.put(key, value);
        });
        return Collections.unmodifiableMap(copy);
    }

    private static List<String> checkedVolumes(List<String> volumes) {
        if (volumes == null) {
            return List.of();
        }
        Set<String> containerPaths = new HashSet<>();
        for (String volume : volumes) {
            BindMount mount = BindMount.parse(volume, FIELD + "volumes");
            if (!containerPaths.add(mount.containerPath().replaceFirst("/+$", ""))) {
                throw new InvalidInputException(ErrorCode.INVALID_CONFIG, FIELD + "volumes mounts two directories at " + mount.containerPath()
                        + "; each container path may be mounted once.");
            }
        }
        return List.copyOf(volumes);
    }

    private static void checkLabel(String key, String value) {
        if (key == null || key.isBlank() || key.indexOf('\0') >= 0) {
            throw new InvalidInputException(ErrorCode.INVALID_CONFIG, FIELD + "labels key '" + key + "' is invalid; it must be non-blank.");
        }
        if (value == null) {
            throw new InvalidInputException(ErrorCode.INVALID_CONFIG, FIELD + "labels." + key + " has no value; give it one (an empty string is fine).");
        }
        if (key.startsWith(RESERVED_LABEL_PREFIX)) {
            throw new InvalidInputException(ErrorCode.INVALID_CONFIG, FIELD + "labels key '" + key + "' is invalid; keys under "
                    + RESERVED_LABEL_PREFIX + " are reserved for the provider.");
        }
    }

    /** Builder for {@link DockerProviderConfig}; unset fields take their defaults. Not thread-safe. */
    public static final class Builder {
        private String host;
        private String image;
        private Double cpus;
        private String memory;
        private String networkMode;
        private Map<String, String> labels;
        private String workingDirectory;
        private String apiVersion;
        private Boolean useEnvironment;
        private Map<String, String> env;
        private Boolean init;
        private List<String> volumes;
        private Boolean execChannel;

        private Builder() {
        }

        public Builder host(String host) {
            this.host = host;
            return this;
        }

        public Builder image(String image) {
            this.image = image;
            return this;
        }

        public Builder cpus(Double cpus) {
            this.cpus = cpus;
            return this;
        }

        public Builder memory(String memory) {
            this.memory = memory;
            return this;
        }

        public Builder networkMode(String networkMode) {
            this.networkMode = networkMode;
            return this;
        }

        public Builder labels(Map<String, String> labels) {
            this.labels = labels;
            return this;
        }

        public Builder workingDirectory(String workingDirectory) {
            this.workingDirectory = workingDirectory;
            return this;
        }

        public Builder apiVersion(String apiVersion) {
            this.apiVersion = apiVersion;
            return this;
        }

        public Builder useEnvironment(Boolean useEnvironment) {
            this.useEnvironment = useEnvironment;
            return this;
        }

        public Builder env(Map<String, String> env) {
            this.env = env;
            return this;
        }

        public Builder init(Boolean init) {
            this.init = init;
            return this;
        }

        /** Host directories to mount, each {@code /host/path:/container/path[:ro|:rw]}. */
        public Builder volumes(List<String> volumes) {
            this.volumes = volumes;
            return this;
        }

        /** Whether commands use the long-lived exec channel; null means the default (true). */
        public Builder execChannel(Boolean execChannel) {
            this.execChannel = execChannel;
            return this;
        }

        public DockerProviderConfig build() {
            return new DockerProviderConfig(host, image, cpus, memory, networkMode, labels, workingDirectory, apiVersion,
                    useEnvironment, env, init, volumes, execChannel);
        }
    }
}
