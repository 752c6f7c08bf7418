package io.sandboxfactory.provider.docker;

import com.github.dockerjava.api.model.AccessMode;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Volume;
import io.sandboxfactory.api.InvalidConfigValueException;

import java.util.Objects;

/**
 * One host directory mounted into every container, parsed from Docker's {@code -v} spelling:
 * {@code /host/path:/container/path}, optionally followed by {@code :ro} or {@code :rw} (default
 * {@code rw}). Both paths must be absolute, and neither may contain {@code :} (the separator),
 * NUL or a line break; the container path must not be {@code /}. Named volumes are not accepted:
 * destroying a sandbox removes only what belongs to its container.
 *
 * @param hostPath the directory on the engine's host
 * @param containerPath where it appears inside the container
 * @param readOnly whether the container may only read it
 */
record BindMount(String hostPath, String containerPath, boolean readOnly) {

    BindMount {
        Objects.requireNonNull(hostPath, "hostPath");
        Objects.requireNonNull(containerPath, "containerPath");
    }

    /**
     * Parses {@code spec}; a bad one is rejected naming {@code key}, the value and the rule.
     *
     * @param key the config key holding the value, within the provider's section: {@code volumes[0]}
     */
    static BindMount parse(String spec, String key) {
        String[] parts = spec == null ? new String[0] : spec.split(":", -1);
        boolean shaped = parts.length == 2 || (parts.length == 3 && (parts[2].equals("ro") || parts[2].equals("rw")));
        if (!shaped || !isAbsolute(parts[0]) || !isAbsolute(parts[1]) || parts[1].replaceAll("/+", "/").equals("/")) {
            throw new InvalidConfigValueException(key, spec, "it must be /host/path:/container/path with an optional :ro or :rw, both"
                    + " paths absolute, without ':', and not mounted over the container's /");
        }
        return new BindMount(parts[0], parts[1], parts.length == 3 && parts[2].equals("ro"));
    }

    private static boolean isAbsolute(String path) {
        return path.startsWith("/") && path.indexOf('\0') < 0 && path.indexOf('\n') < 0 && path.indexOf('\r') < 0;
    }

    /** The docker-java form of this mount. */
    Bind toBind() {
        return new Bind(hostPath, new Volume(containerPath), readOnly ? AccessMode.ro : AccessMode.rw);
    }

    /** Docker's {@code -v} spelling, the form it was configured in. */
    @Override
    public String toString() {
        return hostPath + ":" + containerPath + (readOnly ? ":ro" : ":rw");
    }
}
