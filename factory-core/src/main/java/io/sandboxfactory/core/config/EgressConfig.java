package io.sandboxfactory.core.config;

import io.sandboxfactory.api.InvalidConfigValueException;
import io.sandboxfactory.core.egress.EgressMode;
import io.sandboxfactory.core.egress.EgressPolicy;
import io.sandboxfactory.core.egress.EgressRule;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The {@code egress:} section: what network the sandboxes of a session may reach.
 *
 * @param mode {@code open} (the default: the provider's own network setting decides, as without this
 *     section), {@code allowlist} (only the hosts allowed, through the factory's egress proxy) or {@code none}
 * @param allow host patterns every session may reach in mode {@code allowlist}: {@code host},
 *     {@code *.domain}, either with {@code :port}; a session adds its own ({@code --egress-allow})
 * @param resolve addresses the proxy connects to for these host names instead of asking the resolver;
 *     each value an IP literal
 * @param proxyAddress the IPv4 {@code address:port} the proxy listens at instead of an ephemeral port on
 *     127.0.0.1, for sandboxes that reach it over the network (Kubernetes pods: their only allowed egress)
 */
public record EgressConfig(String mode, List<String> allow, Map<String, String> resolve, Optional<String> proxyAddress) {

    private static final Pattern IPV4 = Pattern.compile("(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

    public EgressConfig {
        mode = Objects.requireNonNullElse(mode, EgressMode.OPEN.configName());
        allow = List.copyOf(Objects.requireNonNullElse(allow, List.of()));
        resolve = Map.copyOf(Objects.requireNonNullElse(resolve, Map.of()));
        proxyAddress = Objects.requireNonNullElse(proxyAddress, Optional.empty());
        InvalidConfigValueException.Collector problems = new InvalidConfigValueException.Collector();
        String shownMode = mode;
        problems.check(() -> EgressMode.parse("mode", shownMode));
        for (int i = 0; i < allow.size(); i++) {
            String pattern = allow.get(i);
            String key = "allow[" + i + "]";
            problems.check(() -> EgressRule.parse(key, pattern));
        }
        resolve.forEach((host, address) -> {
            problems.check(() -> EgressRule.parse("resolve", host));
            if (address == null || !ipLiteral(address)) {
                problems.reject("resolve." + host, address, "it must be an IPv4 or IPv6 address, not a name");
            }
        });
        proxyAddress.ifPresent(address -> {
            int colon = address.lastIndexOf(':');
            if (colon < 0 || !IPV4.matcher(address.substring(0, colon)).matches() || !address.substring(colon + 1).matches("[1-9][0-9]{0,4}")
                    || Integer.parseInt(address.substring(colon + 1)) > 65535) {
                problems.reject("proxyAddress", address, "it must be an IPv4 address and a port, such as 10.0.0.2:3128");
            }
        });
        problems.throwIfAny();
    }

    /** Mode {@code open}, nothing allowed: the provider's own network setting decides. */
    public static EgressConfig defaults() {
        return new EgressConfig(null, null, null, Optional.empty());
    }

    /** The mode, parsed. */
    public EgressMode egressMode() {
        return EgressMode.parse("mode", mode);
    }

    /** The policy of a session that adds {@code sessionAllow} and {@code sessionDeny} to the configured allow-list. */
    public EgressPolicy policy(List<String> sessionAllow, List<String> sessionDeny) {
        List<EgressRule> rules = new ArrayList<>();
        allow.forEach(pattern -> rules.add(EgressRule.parse("allow", pattern)));
        EgressPolicy policy = new EgressPolicy(egressMode(), rules, List.of());
        for (String pattern : sessionAllow) {
            policy = policy.allowing(EgressRule.parse("allow", pattern));
        }
        for (String pattern : sessionDeny) {
            policy = policy.denying(EgressRule.parse("deny", pattern));
        }
        return policy;
    }

    /** The address the proxy listens at: {@link #proxyAddress()} when set in mode allowlist, else none (an ephemeral port on 127.0.0.1). */
    public Optional<InetSocketAddress> proxySocket() {
        if (egressMode() != EgressMode.ALLOWLIST) {
            return Optional.empty();
        }
        return proxyAddress.map(address -> {
            int colon = address.lastIndexOf(':');
            try {
                // A literal: no lookup happens.
                return new InetSocketAddress(InetAddress.getByName(address.substring(0, colon)), Integer.parseInt(address.substring(colon + 1)));
            } catch (UnknownHostException e) {
                throw new InvalidConfigValueException("proxyAddress", address, "it must be an IPv4 address and a port, such as 10.0.0.2:3128");
            }
        });
    }

    /** The {@code resolve} map as addresses, keyed by lower-case name. */
    public Map<String, InetAddress> resolvedAddresses() {
        Map<String, InetAddress> addresses = new LinkedHashMap<>();
        resolve.forEach((host, address) -> {
            try {
                // A literal: no lookup happens.
                addresses.put(EgressRule.parse("resolve", host).host(), InetAddress.getByName(address));
            } catch (UnknownHostException e) {
                throw new InvalidConfigValueException("resolve." + host, address, "it must be an IPv4 or IPv6 address, not a name");
            }
        });
        return addresses;
    }

    private static boolean ipLiteral(String text) {
        if (IPV4.matcher(text).matches()) {
            return true;
        }
        try {
            // Only a text with a colon gets here, which the JDK reads as an IPv6 literal, never as a name to look up.
            return IPV6.matcher(text).matches() && InetAddress.getByName(text) != null;
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
