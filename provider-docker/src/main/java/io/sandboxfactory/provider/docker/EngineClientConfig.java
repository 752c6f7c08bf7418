package io.sandboxfactory.provider.docker;

import com.github.dockerjava.api.model.AuthConfig;
import com.github.dockerjava.api.model.AuthConfigurations;
import com.github.dockerjava.core.DockerClientConfig;
import com.github.dockerjava.core.RemoteApiVersion;
import com.github.dockerjava.core.SSLConfig;

import java.net.URI;
import java.util.Objects;

/**
 * A docker-java client configuration made only of the values given to it. Unlike docker-java's
 * {@code DefaultDockerClientConfig}, it reads no environment variable, system property, {@code
 * ~/.docker-java.properties} or {@code ~/.docker/config.json}, and holds no registry credentials:
 * this provider never pulls or pushes.
 */
final class EngineClientConfig implements DockerClientConfig {

    private final URI dockerHost;
    private final RemoteApiVersion apiVersion;
    private final SSLConfig sslConfig;

    EngineClientConfig(URI dockerHost, RemoteApiVersion apiVersion, SSLConfig sslConfig) {
        this.dockerHost = Objects.requireNonNull(dockerHost, "dockerHost");
        this.apiVersion = Objects.requireNonNull(apiVersion, "apiVersion");
        this.sslConfig = sslConfig;
    }

    @Override
    public URI getDockerHost() {
        return dockerHost;
    }

    @Override
    public RemoteApiVersion getApiVersion() {
        return apiVersion;
    }

    @Override
    public String getRegistryUsername() {
        return null;
    }

    @Override
    public String getRegistryPassword() {
        return null;
    }

    @Override
    public String getRegistryEmail() {
        return null;
    }

    @Override
    public String getRegistryUrl() {
        return null;
    }

    @Override
    public AuthConfig effectiveAuthConfig(String imageName) {
        return null;
    }

    @Override
    public AuthConfigurations getAuthConfigurations() {
        return new AuthConfigurations();
    }

    @Override
    public SSLConfig getSSLConfig() {
        return sslConfig;
    }

    @Override
    public String toString() {
        return "EngineClientConfig[host=" + dockerHost + ", apiVersion=" + apiVersion.getVersion()
                + ", tls=" + (sslConfig != null) + "]";
    }
}
