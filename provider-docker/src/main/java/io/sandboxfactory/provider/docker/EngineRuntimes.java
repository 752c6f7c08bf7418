package io.sandboxfactory.provider.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Info;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;

import java.net.URI;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The OCI runtimes an engine knows and the one it uses by default, from its {@code GET /info}.
 *
 * @param names every runtime the engine can run containers with ({@code runc}, {@code runsc} ...)
 * @param defaultRuntime the one a container gets when it names none
 */
record EngineRuntimes(Set<String> names, String defaultRuntime) {

    EngineRuntimes {
        names = Set.copyOf(names);
        Objects.requireNonNull(defaultRuntime, "defaultRuntime");
    }

    /** Asks the engine. */
    static EngineRuntimes read(DockerClient client) {
        Info info = client.infoCmd().exec();
        Set<String> names = new TreeSet<>(info.getRuntimes() == null ? Set.of() : info.getRuntimes().keySet());
        // docker-java has no field for DefaultRuntime; the engine has sent it since API 1.25.
        Object reported = info.getRawValues().get("DefaultRuntime");
        String defaultRuntime = reported instanceof String name && !name.isBlank() ? name : "runc";
        names.add(defaultRuntime);
        return new EngineRuntimes(names, defaultRuntime);
    }

    /** The runtime a container of {@code configured} gets: it, or the engine's default. */
    String effective(Optional<String> configured) {
        return configured.orElse(defaultRuntime);
    }

    /**
     * Refuses a configured runtime the engine does not know, naming the engine's: checked before
     * anything is created, so a typo leaves no container or volume behind.
     */
    void require(Optional<String> configured, URI host) {
        configured.filter(name -> !names.contains(name)).ifPresent(name -> {
            throw new InvalidInputException(StandardErrorCode.INVALID_CONFIG, "providers.docker.runtime '" + name + "' is invalid; it must"
                    + " be a runtime the Docker engine at " + host + " knows: " + String.join(", ", new TreeSet<>(names))
                    + " (register others with dockerd --add-runtime or daemon.json \"runtimes\").");
        });
    }
}
