package io.sandboxfactory.api;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * What the framework offers a provider when it opens it: objects the host registered by type
 * (how the callback provider receives the host's function), the state directory and an owner
 * name to label resources with.
 *
 * @since 0.1.0
 */
public interface ProviderContext {

    /** The host object registered for {@code type}, if any. */
    <T> Optional<T> lookup(Class<T> type);

    /**
     * A directory the framework owns, for provider state (e.g. the local provider's default root).
     * A config default that lives here cannot be set in the config record (its constructor does
     * not see the context): leave the field null there and resolve it in {@code open}.
     */
    Path stateDirectory();

    /** Who owns the sandboxes this factory makes; providers label their resources with it. */
    String owner();

    /**
     * The host environment the factory was built with, read-only; a provider that passes host
     * variables to its sandboxes takes them from here rather than from {@link System#getenv()}, so a
     * host serving callers with different environments from one process gives each its own. A
     * sandbox that runs host processes takes its base {@code PATH} (and {@code HOME}, {@code LANG}
     * if it passes the host's through) from here, puts its configured variables on top and {@link
     * CommandRequest#env()} on top of those. Default: this process's environment.
     */
    default Map<String, String> environment() {
        return System.getenv();
    }

    /**
     * Where the factory's egress proxy listens for sandboxes that may reach only the hosts of an
     * allow-list ({@code egress.mode: allowlist} with {@code egress.proxyAddress}); empty otherwise. A
     * provider that confines its sandboxes' network itself (a Kubernetes NetworkPolicy) lets them
     * reach this address and nothing else, in a rule of its own that never reopens other egress.
     */
    default Optional<InetSocketAddress> egressProxy() {
        return Optional.empty();
    }
}
