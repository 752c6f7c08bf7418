package io.sandboxfactory.provider.kubernetes;

import io.sandboxfactory.api.support.EnvironmentVariables;
import io.fabric8.kubernetes.api.model.Quantity;
import io.sandboxfactory.api.InvalidConfigValueException;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Configuration of the {@code kubernetes} provider ({@code providers.kubernetes} in the config
 * file). Absent fields get their defaults; every value is checked here, so the bad ones fail together
 * when the config is read, each rejected by its key within the section, its value and the rule.
 *
 * <p>The cluster is reached with these values only: {@code KUBECONFIG}, {@code ~/.kube/config}'s
 * current context when another is named, fabric8's system properties and environment variables are
 * ignored unless {@code useEnvironment} is true. A host may instead register its own {@code
 * KubernetesClient} as a host object; it then wins and the provider never closes it.
 *
 * @param namespace where pods, claims and policies live. Default {@value #DEFAULT_NAMESPACE}
 * @param image the image sandboxes run: any image with {@code /bin/sh}, {@code tar}, and {@code git}
 *     for sessions on a repository. Default {@value #DEFAULT_IMAGE}
 * @param serviceAccount the pod's service account; none named by default (the namespace's {@code
 *     default}). Its token is never mounted into sandboxes
 * @param cpuRequest CPU request per pod, a Kubernetes quantity ({@code 500m}, {@code 2}); a
 *     session's own {@code SandboxResources} win
 * @param cpuLimit CPU limit per pod; a session's own {@code SandboxResources} win
 * @param memoryRequest memory request per pod ({@code 512Mi}); a session's own resources win
 * @param memoryLimit memory limit per pod ({@code 2Gi}); a session's own resources win
 * @param nodeSelector node labels every pod requires
 * @param tolerations taints every pod tolerates
 * @param labels extra labels on pods, claims and policies; keys under {@code io.sandboxfactory/}
 *     are reserved
 * @param storageClass the class of the session claims; the cluster's default class when absent
 * @param storageSize the size of each session claim. Default {@value #DEFAULT_STORAGE_SIZE}
 * @param networkPolicy {@code deny-all} (default: a NetworkPolicy per session denies all ingress
 *     and egress, and the provider declares {@code NETWORK_ISOLATION}) or {@code none}
 * @param kubeconfig the kubeconfig file. Default {@code ~/.kube/config}
 * @param context the kubeconfig context; the file's current context when absent
 * @param inCluster reach the API server from inside a pod: {@code KUBERNETES_SERVICE_HOST}/{@code
 *     _PORT} and the mounted service account token. Default false
 * @param useEnvironment honour fabric8's own settings ({@code KUBECONFIG}, system properties,
 *     environment variables, in-cluster detection); {@code context} still picks the context.
 *     Default false
 * @param workingDirectory the absolute directory the session claim is mounted at and commands run
 *     in. Default {@value #DEFAULT_WORKING_DIRECTORY}
 * @param readyTimeout how long a start waits for the pod to be Ready ({@code 3m}, {@code 90s},
 *     ISO-8601). Default {@value #DEFAULT_READY_TIMEOUT}
 * @param env variables set for every command, under the sandbox overlay and the per-call env
 * @param runAsUser the non-root uid the sandbox container runs as; also its group and the pod's
 *     {@code fsGroup}, so the claim is writable to it. Default {@value #DEFAULT_RUN_AS_USER}
 * @param addCapabilities Linux capabilities added back after dropping them all ({@code
 *     NET_BIND_SERVICE}, without {@code CAP_}); none by default
 * @param runtimeClassName the RuntimeClass of the pods ({@code gvisor}, {@code kata}); the
 *     cluster's default runtime when absent
 */
public record KubernetesProviderConfig(
        String namespace,
        String image,
        String serviceAccount,
        String cpuRequest,
        String cpuLimit,
        String memoryRequest,
        String memoryLimit,
        Map<String, String> nodeSelector,
        List<KubernetesToleration> tolerations,
        Map<String, String> labels,
        String storageClass,
        String storageSize,
        String networkPolicy,
        String kubeconfig,
        String context,
        Boolean inCluster,
        Boolean useEnvironment,
        String workingDirectory,
        String readyTimeout,
        Map<String, String> env,
        Long runAsUser,
        List<String> addCapabilities,
        String runtimeClassName) {

    public static final String DEFAULT_NAMESPACE = "default";
    public static final String DEFAULT_IMAGE = "alpine/git:latest";
    public static final String DEFAULT_STORAGE_SIZE = "1Gi";
    public static final String DEFAULT_WORKING_DIRECTORY = "/workspace";
    public static final String DEFAULT_READY_TIMEOUT = "3m";
    public static final String DENY_ALL = "deny-all";
    public static final String NO_POLICY = "none";
    public static final long DEFAULT_RUN_AS_USER = 1000;

    private static final Pattern LABEL_KEY = Pattern.compile(
            "([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");
    private static final Pattern CAPABILITY = Pattern.compile("[A-Z][A-Z0-9_]*");
    /** A DNS-1123 subdomain, which RuntimeClass names are. */
    private static final Pattern DNS_1123_SUBDOMAIN = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final Pattern SHORT_DURATION = Pattern.compile("(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?");

    public KubernetesProviderConfig {
        // Keys are relative to the section: the framework puts the section's own prefix before them.
        InvalidConfigValueException.Collector problems = new InvalidConfigValueException.Collector();
        namespace = Objects.requireNonNullElse(namespace, DEFAULT_NAMESPACE).trim();
        image = Objects.requireNonNullElse(image, DEFAULT_IMAGE).trim();
        serviceAccount = blankToNull(serviceAccount);
        cpuRequest = quantity(cpuRequest, "cpuRequest", problems);
        cpuLimit = quantity(cpuLimit, "cpuLimit", problems);
        memoryRequest = quantity(memoryRequest, "memoryRequest", problems);
        memoryLimit = quantity(memoryLimit, "memoryLimit", problems);
        nodeSelector = labelMap(nodeSelector, "nodeSelector", false, problems);
        tolerations = List.copyOf(Objects.requireNonNullElse(tolerations, List.of()));
        labels = labelMap(labels, "labels", true, problems);
        storageClass = blankToNull(storageClass);
        storageSize = Objects.requireNonNullElse(quantity(storageSize, "storageSize", problems), DEFAULT_STORAGE_SIZE);
        networkPolicy = Objects.requireNonNullElse(networkPolicy, DENY_ALL).trim();
        kubeconfig = blankToNull(kubeconfig);
        context = blankToNull(context);
        inCluster = Objects.requireNonNullElse(inCluster, Boolean.FALSE);
        useEnvironment = Objects.requireNonNullElse(useEnvironment, Boolean.FALSE);
        workingDirectory = Objects.requireNonNullElse(workingDirectory, DEFAULT_WORKING_DIRECTORY).trim();
        readyTimeout = Objects.requireNonNullElse(readyTimeout, DEFAULT_READY_TIMEOUT).trim();
        EnvironmentVariables.checkIdentifiers(env, "env", problems);
        runAsUser = Objects.requireNonNullElse(runAsUser, DEFAULT_RUN_AS_USER);
        addCapabilities = List.copyOf(Objects.requireNonNullElse(addCapabilities, List.<String>of()));
        runtimeClassName = blankToNull(runtimeClassName);
        if (runAsUser < 1 || runAsUser > Integer.MAX_VALUE) {
            problems.reject("runAsUser", runAsUser, "it must be a non-root user id, a whole number from 1 to " + Integer.MAX_VALUE
                    + " (pods run with runAsNonRoot)");
        }
        for (String capability : addCapabilities) {
            if (capability == null || !CAPABILITY.matcher(capability).matches() || capability.startsWith("CAP_") || capability.equals("ALL")) {
                problems.reject("addCapabilities", capability, "each must be one Linux capability in upper case without the CAP_"
                        + " prefix, such as NET_BIND_SERVICE (ALL is not allowed)");
            }
        }
        if (runtimeClassName != null && (runtimeClassName.length() > 253 || !DNS_1123_SUBDOMAIN.matcher(runtimeClassName).matches())) {
            problems.reject("runtimeClassName", runtimeClassName, "it must be a RuntimeClass name: a DNS-1123 subdomain of lower-case"
                    + " letters, digits, '-' and '.', starting and ending with a letter or digit, at most 253 characters");
        }

        requireName(namespace, "namespace", problems);
        if (image.isEmpty() || image.chars().anyMatch(Character::isWhitespace)) {
            problems.reject("image", image, "it must be an image reference without spaces, such as alpine/git:latest");
        }
        if (serviceAccount != null) {
            requireName(serviceAccount, "serviceAccount", problems);
        }
        if (storageClass != null) {
            requireName(storageClass, "storageClass", problems);
        }
        if (!DENY_ALL.equals(networkPolicy) && !NO_POLICY.equals(networkPolicy)) {
            problems.reject("networkPolicy", networkPolicy, "it must be " + DENY_ALL + " or " + NO_POLICY);
        }
        if (inCluster && kubeconfig != null) {
            problems.reject("inCluster", true, "it cannot be combined with kubeconfig '" + kubeconfig + "'; choose one way to reach"
                    + " the cluster");
        }
        if (!workingDirectory.startsWith("/") || workingDirectory.indexOf('\0') >= 0 || workingDirectory.contains("/../")
                || workingDirectory.endsWith("/..") || "/".equals(workingDirectory)) {
            problems.reject("workingDirectory", workingDirectory, "it must be an absolute directory other than / without '..'"
                    + " components, such as /workspace");
        }
        String timeout = readyTimeout;
        problems.check(() -> parseDuration(timeout), null);
        problems.throwIfAny();
        env = Map.copyOf(Objects.requireNonNullElse(env, Map.<String, String>of()));
    }

    /** Every default. */
    public static KubernetesProviderConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The isolation in one word: {@code kubernetes/<runtime class>}, {@code kubernetes/default} without one. */
    String isolation() {
        return "kubernetes/" + (runtimeClassName == null ? "default" : runtimeClassName);
    }

    /** Whether every sandbox gets a deny-all NetworkPolicy. */
    boolean denyAllNetwork() {
        return DENY_ALL.equals(networkPolicy);
    }

    Duration readyTimeoutDuration() {
        return parseDuration(readyTimeout);
    }

    private static Duration parseDuration(String text) {
        Duration parsed = null;
        if (text.toUpperCase(Locale.ROOT).startsWith("P")) {
            try {
                parsed = Duration.parse(text);
            } catch (DateTimeParseException e) {
                parsed = null;
            }
        } else {
            Matcher m = SHORT_DURATION.matcher(text);
            if (!text.isEmpty() && m.matches()) {
                parsed = Duration.ofHours(group(m, 1)).plusMinutes(group(m, 2)).plusSeconds(group(m, 3));
            }
        }
        if (parsed == null || parsed.isNegative() || parsed.isZero()) {
            throw new InvalidConfigValueException("readyTimeout", text, "it must be a positive duration such as 90s, 3m, 1h30m or PT3M");
        }
        return parsed;
    }

    private static long group(Matcher m, int group) {
        return m.group(group) == null ? 0 : Long.parseLong(m.group(group));
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }

    private static String quantity(String value, String key, InvalidConfigValueException.Collector problems) {
        String trimmed = blankToNull(value);
        if (trimmed == null) {
            return null;
        }
        boolean positive;
        try {
            positive = Quantity.getAmountInBytes(new Quantity(trimmed)).signum() > 0;
        } catch (IllegalArgumentException e) {
            positive = false;
        }
        if (!positive) {
            problems.reject(key, trimmed, "it must be a positive Kubernetes quantity such as 500m, 2, 512Mi or 4Gi");
        }
        return trimmed;
    }

    private static void requireName(String value, String key, InvalidConfigValueException.Collector problems) {
        if (value.length() > 63 || !ResourceNames.DNS_1123_LABEL.matcher(value).matches()) {
            problems.reject(key, value, "it must be a DNS-1123 label: lower-case letters, digits and '-', starting and ending with a"
                    + " letter or digit, at most 63 characters");
        }
    }

    private static Map<String, String> labelMap(Map<String, String> map, String key, boolean reserve,
                                                InvalidConfigValueException.Collector problems) {
        Map<String, String> copy = new LinkedHashMap<>();
        Objects.requireNonNullElse(map, Map.<String, String>of()).forEach((label, value) -> {
            String v = Objects.requireNonNullElse(value, "");
            if (label == null || label.length() > 316 || !LABEL_KEY.matcher(label).matches()) {
                problems.reject(key, label, "a label key must be an optional DNS prefix and '/', then 1-63 letters, digits, '-', '_'"
                        + " or '.'");
            } else if (reserve && label.startsWith(SessionLabels.RESERVED_PREFIX)) {
                problems.reject(key, label, "label keys under " + SessionLabels.RESERVED_PREFIX + " are the provider's own");
            } else if (!SessionLabels.isValidLabelValue(v)) {
                problems.reject(key + "." + label, v, "it must be at most 63 letters, digits, '-', '_' or '.', starting and ending"
                        + " with a letter or digit");
            } else {
                copy.put(label, v);
            }
        });
        return Map.copyOf(copy);
    }

    /** Builds a config in code; every field defaults as in the file. */
    public static final class Builder {
        private String namespace;
        private String image;
        private String serviceAccount;
        private String cpuRequest;
        private String cpuLimit;
        private String memoryRequest;
        private String memoryLimit;
        private Map<String, String> nodeSelector;
        private List<KubernetesToleration> tolerations;
        private Map<String, String> labels;
        private String storageClass;
        private String storageSize;
        private String networkPolicy;
        private String kubeconfig;
        private String context;
        private Boolean inCluster;
        private Boolean useEnvironment;
        private String workingDirectory;
        private String readyTimeout;
        private Map<String, String> env;
        private Long runAsUser;
        private List<String> addCapabilities;
        private String runtimeClassName;

        private Builder() {
        }

        public Builder namespace(String v) { namespace = v; return this; }
        public Builder image(String v) { image = v; return this; }
        public Builder serviceAccount(String v) { serviceAccount = v; return this; }
        public Builder cpuRequest(String v) { cpuRequest = v; return this; }
        public Builder cpuLimit(String v) { cpuLimit = v; return this; }
        public Builder memoryRequest(String v) { memoryRequest = v; return this; }
        public Builder memoryLimit(String v) { memoryLimit = v; return this; }
        public Builder nodeSelector(Map<String, String> v) { nodeSelector = v; return this; }
        public Builder tolerations(List<KubernetesToleration> v) { tolerations = v; return this; }
        public Builder labels(Map<String, String> v) { labels = v; return this; }
        public Builder storageClass(String v) { storageClass = v; return this; }
        public Builder storageSize(String v) { storageSize = v; return this; }
        public Builder networkPolicy(String v) { networkPolicy = v; return this; }
        public Builder kubeconfig(String v) { kubeconfig = v; return this; }
        public Builder context(String v) { context = v; return this; }
        public Builder inCluster(boolean v) { inCluster = v; return this; }
        public Builder useEnvironment(boolean v) { useEnvironment = v; return this; }
        public Builder workingDirectory(String v) { workingDirectory = v; return this; }
        public Builder readyTimeout(String v) { readyTimeout = v; return this; }
        public Builder env(Map<String, String> v) { env = v; return this; }
        public Builder runAsUser(long v) { runAsUser = v; return this; }
        public Builder addCapabilities(List<String> v) { addCapabilities = v; return this; }
        public Builder runtimeClassName(String v) { runtimeClassName = v; return this; }

        public KubernetesProviderConfig build() {
            return new KubernetesProviderConfig(namespace, image, serviceAccount, cpuRequest, cpuLimit, memoryRequest,
                    memoryLimit, nodeSelector, tolerations, labels, storageClass, storageSize, networkPolicy, kubeconfig,
                    context, inCluster, useEnvironment, workingDirectory, readyTimeout, env, runAsUser, addCapabilities, runtimeClassName);
        }
    }
}
