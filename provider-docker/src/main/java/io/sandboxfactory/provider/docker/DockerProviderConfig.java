package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.InvalidConfigValueException;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.support.EnvironmentVariables;

import com.github.dockerjava.api.model.Capability;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Configuration of the {@code docker} provider ({@code providers.docker} in the config file).
 * Absent fields get their defaults; every value is checked here, so the bad ones fail together when
 * the config is read, each rejected by its key within the section, its value and the rule.
 *
 * <p>The engine is reached with these values only: {@code DOCKER_HOST}, {@code
 * ~/.docker-java.properties}, Docker contexts and JVM system properties are ignored unless
 * {@code useEnvironment} is true.
 *
 * @param host the engine endpoint, {@code unix://}, {@code tcp://} or {@code npipe://}. Default
 *     {@value #DEFAULT_HOST}. Plain {@code tcp://} only; TLS needs {@code useEnvironment}.
 * @param image the image sandboxes run. Default {@value #DEFAULT_IMAGE}, the busybox + git + perl image
 *     {@code scripts/docker-up.sh} builds; any image with {@code /bin/sh} works, with {@code git}
 *     for sessions on a repository and perl or socat for an egress allow-list. The provider never
 *     pulls: the image must be on the engine.
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
 * @param user the numeric {@code uid} or {@code uid:gid} commands run as. Default {@value
 *     #DEFAULT_USER}; a lone uid gets the same number as its gid (Docker would give it group 0).
 *     The container's working directory is made owned by it when the container is created, on any
 *     image, and files copied in belong to it. {@code 0} runs as root and gives up that layer
 * @param capAdd Linux capabilities given back after every one is dropped ({@code cap-drop ALL}),
 *     such as {@code NET_BIND_SERVICE}; none by default. {@code CAP_} prefixes and case are ignored
 * @param pidsLimit how many processes (threads included) one container may hold. Default {@value
 *     #DEFAULT_PIDS_LIMIT}; a fork bomb stops there
 * @param readOnlyRootFilesystem mount the image's files read-only; the working directory (a volume
 *     of the container) and {@code /tmp} (a tmpfs) stay writable. Default false
 * @param runtime the engine's OCI runtime for the containers, such as {@code runsc} (gVisor); the
 *     engine's default ({@code runc} usually) when left out. A runtime the engine does not know
 *     fails the start before anything is created
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
        Boolean execChannel,
        String user,
        List<String> capAdd,
        Long pidsLimit,
        Boolean readOnlyRootFilesystem,
        String runtime) {

    public static final String DEFAULT_HOST = "unix:///var/run/docker.sock";
    public static final String DEFAULT_IMAGE = "sandbox-factory/test-base:latest";
    public static final String DEFAULT_NETWORK_MODE = "none";
    public static final String DEFAULT_WORKING_DIRECTORY = "/workspace";
    public static final String DEFAULT_USER = "1000:1000";
    public static final long DEFAULT_PIDS_LIMIT = 1024;

    /** Label keys under this prefix belong to the provider. */
    static final String RESERVED_LABEL_PREFIX = "io.sandboxfactory.";

    private static final String WORKING_DIRECTORY_RULE = "it must be an absolute path inside the container, such as /workspace";
    private static final Pattern API_VERSION = Pattern.compile("1\\.\\d{1,3}");
    private static final Pattern NETWORK_MODE = Pattern.compile("[a-zA-Z0-9][a-zA-Z0-9_.:-]*");
    /** The capabilities {@code capAdd} may name: docker-java's, without {@code ALL}. */
    private static final Set<String> CAPABILITIES = Arrays.stream(Capability.values()).map(Enum::name)
            .filter(name -> !name.equals("ALL")).collect(Collectors.toUnmodifiableSet());
    private static final Pattern RUNTIME = Pattern.compile("[a-zA-Z0-9][a-zA-Z0-9_.-]*");

    public DockerProviderConfig {
        host = Objects.requireNonNullElse(host, DEFAULT_HOST).trim();
        image = Objects.requireNonNullElse(image, DEFAULT_IMAGE).trim();
        networkMode = Objects.requireNonNullElse(networkMode, DEFAULT_NETWORK_MODE).trim();
        workingDirectory = Objects.requireNonNullElse(workingDirectory, DEFAULT_WORKING_DIRECTORY).trim();
        apiVersion = apiVersion == null || apiVersion.isBlank() ? null : apiVersion.trim();
        useEnvironment = Objects.requireNonNullElse(useEnvironment, Boolean.FALSE);
        init = Objects.requireNonNullElse(init, Boolean.TRUE);
        execChannel = Objects.requireNonNullElse(execChannel, Boolean.TRUE);
        user = Objects.requireNonNullElse(user, DEFAULT_USER).trim();
        pidsLimit = Objects.requireNonNullElse(pidsLimit, DEFAULT_PIDS_LIMIT);
        readOnlyRootFilesystem = Objects.requireNonNullElse(readOnlyRootFilesystem, Boolean.FALSE);
        runtime = runtime == null || runtime.isBlank() ? null : runtime.trim();

        // Keys are relative to the section: the framework puts the section's own prefix before them.
        InvalidConfigValueException.Collector problems = new InvalidConfigValueException.Collector();
        checkLabels(labels, problems);
        EnvironmentVariables.check(env, "env", problems);
        checkVolumes(volumes, problems);
        if (!isHost(host)) {
            problems.reject("host", host, "it must be unix:///path/to/docker.sock, tcp://host:port or npipe:////./pipe/name");
        }
        if (image.isEmpty() || image.chars().anyMatch(Character::isWhitespace)) {
            problems.reject("image", image, "it must be an image reference without spaces, such as alpine/git:latest");
        }
        if (cpus != null && !(cpus > 0 && cpus <= 1024)) {
            problems.reject("cpus", cpus, "it must be a number of CPUs above 0 and at most 1024, such as 0.5 or 2");
        }
        if (memory != null) {
            String text = memory;
            problems.check(() -> MemorySize.parse(text, "memory"), 0L);
        }
        if (!NETWORK_MODE.matcher(networkMode).matches()) {
            problems.reject("networkMode", networkMode, "it must be none, host, bridge or a network name made of letters, digits,"
                    + " '_', '.', ':' and '-'");
        }
        if (!isWorkingDirectory(workingDirectory)) {
            problems.reject("workingDirectory", workingDirectory, WORKING_DIRECTORY_RULE);
        }
        if (apiVersion != null && !API_VERSION.matcher(apiVersion).matches()) {
            problems.reject("apiVersion", apiVersion, "it must look like 1.41, or be left out to negotiate it with the engine");
        }
        String userText = user;
        problems.check(() -> ContainerUser.parse(userText, "user"), null);
        checkCapabilities(capAdd, problems);
        if (pidsLimit <= 0) {
            problems.reject("pidsLimit", pidsLimit, "it must be a whole number of processes above 0, such as 1024");
        }
        if (runtime != null && !RUNTIME.matcher(runtime).matches()) {
            problems.reject("runtime", runtime, "it must be the name of a runtime the engine knows, such as runc or runsc:"
                    + " letters, digits, '_', '.' and '-'");
        }
        problems.throwIfAny();
        capAdd = capAdd == null ? List.of() : capAdd.stream().map(DockerProviderConfig::capabilityName).distinct().toList();
        labels = labels == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(labels));
        env = env == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(env));
        volumes = volumes == null ? List.of() : List.copyOf(volumes);
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
                .useEnvironment(useEnvironment).env(env).init(init).volumes(volumes).execChannel(execChannel)
                .user(user).capAdd(capAdd).pidsLimit(pidsLimit).readOnlyRootFilesystem(readOnlyRootFilesystem).runtime(runtime);
    }

    /** The memory limit in bytes, when configured. */
    public Optional<Long> memoryBytes() {
        return Optional.ofNullable(memory).map(m -> MemorySize.parse(m, "memory"));
    }

    /** The parsed {@link #volumes()}. */
    List<BindMount> bindMounts() {
        return volumes.stream().map(v -> BindMount.parse(v, "volumes")).toList();
    }

    /** The parsed {@link #user()}. */
    ContainerUser containerUser() {
        return ContainerUser.parse(user, "user");
    }

    /** The configured runtime; empty means the engine's default. */
    public Optional<String> configuredRuntime() {
        return Optional.ofNullable(runtime);
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
                + ", execChannel=" + execChannel + ", user=" + user + ", capAdd=" + capAdd + ", pidsLimit=" + pidsLimit
                + ", readOnlyRootFilesystem=" + readOnlyRootFilesystem + ", runtime=" + (runtime == null ? "<engine default>" : runtime)
                + "]";
    }

    /** Checks a session's own working directory; {@code what} starts the message. */
    static void checkWorkingDirectory(String dir, String what) {
        if (!isWorkingDirectory(dir)) {
            throw new InvalidInputException(StandardErrorCode.INVALID_CONFIG, what + " '" + dir + "' is invalid; " + WORKING_DIRECTORY_RULE + ".");
        }
    }

    private static boolean isWorkingDirectory(String dir) {
        return !dir.isEmpty() && dir.startsWith("/") && dir.indexOf('\0') < 0 && !dir.contains("\n");
    }

    private static boolean isHost(String host) {
        URI uri;
        try {
            uri = new URI(host);
        } catch (URISyntaxException e) {
            return false;
        }
        String scheme = uri.getScheme();
        return scheme != null && switch (scheme) {
            case "unix", "npipe" -> uri.getPath() != null && !uri.getPath().isEmpty();
            case "tcp" -> uri.getHost() != null && uri.getPort() > 0;
            default -> false;
        };
    }

    private static void checkVolumes(List<String> volumes, InvalidConfigValueException.Collector problems) {
        if (volumes == null) {
            return;
        }
        Set<String> containerPaths = new HashSet<>();
        for (int i = 0; i < volumes.size(); i++) {
            String key = "volumes[" + i + "]";
            String volume = volumes.get(i);
            BindMount mount = problems.check(() -> BindMount.parse(volume, key), null);
            if (mount != null && !containerPaths.add(mount.containerPath().replaceFirst("/+$", ""))) {
                problems.reject(key, volume, "it mounts a second directory at " + mount.containerPath()
                        + "; each container path may be mounted once");
            }
        }
    }

    /** Docker's spelling of capability {@code name}: upper case, no {@code CAP_} prefix. */
    static String capabilityName(String name) {
        String upper = name.trim().toUpperCase(Locale.ROOT);
        return upper.startsWith("CAP_") ? upper.substring(4) : upper;
    }

    private static void checkCapabilities(List<String> capAdd, InvalidConfigValueException.Collector problems) {
        if (capAdd == null) {
            return;
        }
        for (int i = 0; i < capAdd.size(); i++) {
            String name = capAdd.get(i);
            if (name == null || !CAPABILITIES.contains(capabilityName(name))) {
                problems.reject("capAdd[" + i + "]", name, "it must be a Linux capability name such as NET_BIND_SERVICE"
                        + " (ALL is not allowed: name each one)");
            }
        }
    }

    private static void checkLabels(Map<String, String> labels, InvalidConfigValueException.Collector problems) {
        if (labels == null) {
            return;
        }
        labels.forEach((key, value) -> {
            if (key == null || key.isBlank() || key.indexOf('\0') >= 0) {
                problems.reject("labels", key, "a label key must be non-blank");
            } else if (key.startsWith(RESERVED_LABEL_PREFIX)) {
                problems.reject("labels", key, "label keys under " + RESERVED_LABEL_PREFIX + " are reserved for the provider");
            } else if (value == null) {
                problems.reject("labels." + key, null, "it has no value; give it one (an empty string is fine)");
            }
        });
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
        private String user;
        private List<String> capAdd;
        private Long pidsLimit;
        private Boolean readOnlyRootFilesystem;
        private String runtime;

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

        /** The numeric {@code uid} or {@code uid:gid} commands run as; null means the default. */
        public Builder user(String user) {
            this.user = user;
            return this;
        }

        /** Capabilities given back after dropping all. */
        public Builder capAdd(List<String> capAdd) {
            this.capAdd = capAdd;
            return this;
        }

        public Builder pidsLimit(Long pidsLimit) {
            this.pidsLimit = pidsLimit;
            return this;
        }

        public Builder readOnlyRootFilesystem(Boolean readOnlyRootFilesystem) {
            this.readOnlyRootFilesystem = readOnlyRootFilesystem;
            return this;
        }

        /** The engine's runtime, such as {@code runsc}; null means the engine's default. */
        public Builder runtime(String runtime) {
            this.runtime = runtime;
            return this;
        }

        public DockerProviderConfig build() {
            return new DockerProviderConfig(host, image, cpus, memory, networkMode, labels, workingDirectory, apiVersion,
                    useEnvironment, env, init, volumes, execChannel, user, capAdd, pidsLimit, readOnlyRootFilesystem, runtime);
        }
    }
}
