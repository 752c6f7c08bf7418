package io.sandboxfactory.core.egress;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How the proxy turns a host name into an address: {@code egress.resolve} first (tests and hosts
 * that pin a name to an address), else the JDK's resolver. The names are the ones rules compare,
 * so a pinned name is still decided by its name. A name the resolver maps to this host or its link
 * (loopback, link-local such as a cloud's metadata address, the wildcard, multicast) is refused: an
 * allowed name must not become a way to the host's own services; pin it in {@code egress.resolve}, or
 * allow the address itself, when that is meant.
 */
public final class EgressResolver {

    private static final Pattern IPV4 = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");

    private final Map<String, InetAddress> pinned;

    /** Thrown for a name that resolves to an address no allowed name may reach; the message is the rule. */
    static final class Refused extends IOException {
        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message);
        }
    }

    /** @param pinned addresses by host name (lower case, no trailing dot) */
    public EgressResolver(Map<String, InetAddress> pinned) {
        this.pinned = Map.copyOf(pinned);
    }

    /** The address to connect to for {@code host}. */
    InetAddress resolve(String host) throws IOException {
        String name = EgressRule.normalize(Objects.requireNonNull(host, "host"));
        InetAddress address = pinned.get(name);
        if (address != null) {
            return address;
        }
        if (IPV4.matcher(name).matches()) {
            // A literal a rule allowed as such: no lookup, no surprise.
            return InetAddress.getByName(name);
        }
        try {
            address = InetAddress.getByName(name);
        } catch (UnknownHostException e) {
            throw new IOException("unknown host " + host, e);
        }
        if (address.isLoopbackAddress() || address.isLinkLocalAddress() || address.isAnyLocalAddress() || address.isMulticastAddress()) {
            throw new Refused(host + " resolves to " + address.getHostAddress() + ", an address of this host or its link");
        }
        return address;
    }
}
