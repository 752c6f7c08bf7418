package io.sandboxfactory.core.egress;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.Objects;

/**
 * How the proxy turns a host name into an address: {@code egress.resolve} first (tests and hosts
 * that pin a name to an address), else the JDK's resolver. The names are the ones rules compare,
 * so a pinned name is still decided by its name.
 */
public final class EgressResolver {

    private final Map<String, InetAddress> pinned;

    /** @param pinned addresses by host name (lower case, no trailing dot) */
    public EgressResolver(Map<String, InetAddress> pinned) {
        this.pinned = Map.copyOf(pinned);
    }

    /** The address to connect to for {@code host}. */
    InetAddress resolve(String host) throws IOException {
        InetAddress address = pinned.get(EgressRule.normalize(Objects.requireNonNull(host, "host")));
        if (address != null) {
            return address;
        }
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IOException("unknown host " + host, e);
        }
    }
}
