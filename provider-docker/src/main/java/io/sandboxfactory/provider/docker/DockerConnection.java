package io.sandboxfactory.provider.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Version;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.core.RemoteApiVersion;
import com.github.dockerjava.core.SSLConfig;
import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;
import com.github.dockerjava.transport.DockerHttpClient;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.provider.support.ProviderClosedException;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The connection of one provider instance to its Docker engine: one HTTP transport (a pooled
 * connection manager) and one docker-java client, shared by every sandbox of the instance and
 * opened on first use, so creating sandboxes costs no I/O. Closing it releases the pool.
 *
 * <p>The client configuration comes from {@link DockerProviderConfig} alone (see {@link
 * #resolveEndpoint}). The API version is negotiated once when opening: {@code GET /version}
 * without a version prefix (every engine answers it, whatever its minimum API version), then the
 * lower of the engine's {@code ApiVersion} and {@link #NEWEST_SUPPORTED}. A pinned version skips
 * the question. An engine that does not answer fails the call with a {@link SandboxException}
 * coded {@code DOCKER_UNAVAILABLE}; the next call tries again.
 */
final class DockerConnection implements AutoCloseable {

    /** The newest Engine API version docker-java 3.7 speaks. */
    static final RemoteApiVersion NEWEST_SUPPORTED = RemoteApiVersion.VERSION_1_44;

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /**
     * Every sandbox's command channel ({@link ExecChannel}) holds one connection for as long as it is
     * open, so the pool is sized for many sandboxes rather than docker-java's default of 100.
     */
    private static final int MAX_CONNECTIONS = 1024;

    /** Where the engine is and how to talk to it, before any request. */
    record Endpoint(URI host, SSLConfig sslConfig) {
        Endpoint {
            Objects.requireNonNull(host, "host");
        }
    }

    private record Opened(DockerClient client, RemoteApiVersion apiVersion) {
    }

    private final DockerProviderConfig config;
    private final Endpoint endpoint;
    private final Object lock = new Object();
    private volatile Opened opened;
    private volatile EngineRuntimes runtimes;
    private boolean closed;

    DockerConnection(DockerProviderConfig config) {
        this.config = config;
        this.endpoint = resolveEndpoint(config);
    }

    /**
     * The endpoint {@code config} names. With {@code useEnvironment=false} only {@code host} is
     * used and nothing ambient is read; with {@code true}, docker-java's default configuration
     * (environment, system properties, {@code ~/.docker-java.properties}) supplies the host when it
     * names one, and TLS settings.
     */
    static Endpoint resolveEndpoint(DockerProviderConfig config) {
        if (!config.useEnvironment()) {
            return new Endpoint(URI.create(config.host()), null);
        }
        DefaultDockerClientConfig.Builder ambient = DefaultDockerClientConfig.createDefaultConfigBuilder();
        if (!ambient.isDockerHostSetExplicitly()) {
            ambient.withDockerHost(config.host());
        }
        DefaultDockerClientConfig resolved = ambient.build();
        return new Endpoint(resolved.getDockerHost(), resolved.getSSLConfig());
    }

    /** The engine endpoint, for messages. */
    URI host() {
        return endpoint.host();
    }

    /**
     * The engine a docker client of this host must be pointed at ({@code DOCKER_HOST}) to reach the
     * one this connection does; empty with {@code useEnvironment}, where the client reads the same
     * settings from the environment.
     */
    Optional<String> clientHost() {
        return config.useEnvironment() ? Optional.empty() : Optional.of(config.host());
    }

    /** Whether the engine is reached over TLS. */
    boolean usesTls() {
        return endpoint.sslConfig() != null;
    }

    /** The client, opening the connection (and negotiating the API version) on first use. */
    DockerClient client() {
        return open().client();
    }

    /** The API version every request uses. */
    RemoteApiVersion apiVersion() {
        return open().apiVersion();
    }

    /** The engine's runtimes, asked once (an engine learns new ones only when restarted or reloaded). */
    EngineRuntimes runtimes() {
        EngineRuntimes known = runtimes;
        if (known == null) {
            try {
                known = EngineRuntimes.read(client());
            } catch (SandboxException e) {
                throw e;
            } catch (RuntimeException e) {
                throw unavailable("it did not answer GET /info: " + DockerFailures.message(e), e);
            }
            runtimes = known;
        }
        return known;
    }

    /** The client configuration for {@code apiVersion}: our values only. */
    DockerClientConfig clientConfig(RemoteApiVersion apiVersion) {
        return new EngineClientConfig(endpoint.host(), apiVersion, endpoint.sslConfig());
    }

    private Opened open() {
        Opened current = opened;
        if (current != null) {
            return current;
        }
        synchronized (lock) {
            if (closed) {
                throw new ProviderClosedException("The docker provider instance for " + endpoint.host() + " is closed.");
            }
            if (opened == null) {
                opened = connect();
            }
            return opened;
        }
    }

    private Opened connect() {
        DockerHttpClient transport = new ApacheDockerHttpClient.Builder()
                .dockerHost(endpoint.host())
                .sslConfig(endpoint.sslConfig())
                .connectionTimeout(CONNECT_TIMEOUT)
                .maxConnections(MAX_CONNECTIONS)
                .build();
        try {
            RemoteApiVersion version = config.pinnedApiVersion()
                    .map(RemoteApiVersion::parseConfig)
                    .orElseGet(() -> negotiate(transport));
            return new Opened(DockerClientImpl.getInstance(clientConfig(version), transport), version);
        } catch (RuntimeException e) {
            closeQuietly(transport);
            throw e;
        }
    }

    private RemoteApiVersion negotiate(DockerHttpClient transport) {
        DockerHttpClient.Request request = DockerHttpClient.Request.builder()
                .method(DockerHttpClient.Request.Method.GET)
                .path("/version")
                .build();
        Version version;
        try (DockerHttpClient.Response response = transport.execute(request)) {
            if (response.getStatusCode() != 200) {
                throw unavailable("it answered GET /version with HTTP " + response.getStatusCode(), null);
            }
            try (InputStream body = response.getBody()) {
                version = DockerClientConfig.getDefaultObjectMapper().readValue(body, Version.class);
            }
        } catch (SandboxException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw unavailable(DockerFailures.message(e), e);
        }
        return choose(version.getApiVersion(), version.getMinAPIVersion(), endpoint.host());
    }

    /**
     * The version to speak with an engine reporting {@code engineVersion} (and {@code
     * engineMinimum}, may be null): the lower of it and {@link #NEWEST_SUPPORTED}.
     */
    static RemoteApiVersion choose(String engineVersion, String engineMinimum, URI host) {
        RemoteApiVersion engine = RemoteApiVersion.parseConfigWithDefault(engineVersion);
        if (RemoteApiVersion.UNKNOWN_VERSION.equals(engine) || RemoteApiVersion.VERSION_1_24.isGreater(engine)) {
            throw new SandboxException(DockerErrorCode.DOCKER_UNSUPPORTED, "The Docker engine at " + host + " speaks API "
                    + engineVersion + "; the docker provider needs 1.24 or newer.");
        }
        RemoteApiVersion chosen = engine.isGreater(NEWEST_SUPPORTED) ? NEWEST_SUPPORTED : engine;
        if (RemoteApiVersion.parseConfigWithDefault(engineMinimum).isGreater(chosen)) {
            throw new SandboxException(DockerErrorCode.DOCKER_UNSUPPORTED, "The Docker engine at " + host + " needs API "
                    + engineMinimum + " or newer; the docker provider speaks at most " + NEWEST_SUPPORTED.getVersion() + ".");
        }
        return chosen;
    }

    private SandboxException unavailable(String why, Throwable cause) {
        return new SandboxException(DockerErrorCode.DOCKER_UNAVAILABLE, "The Docker engine at " + endpoint.host()
                + " is not usable: " + why + ". Start Docker (for tests: scripts/docker-up.sh) or set providers.docker.host.",
                cause);
    }

    /** Closes the client and its connection pool; sandboxes of this instance can no longer run commands. */
    @Override
    public void close() {
        Opened toClose;
        synchronized (lock) {
            closed = true;
            toClose = opened;
            opened = null;
        }
        if (toClose != null) {
            closeQuietly(toClose.client());
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // Closing releases sockets; nothing useful can be done when that fails.
        }
    }
}
