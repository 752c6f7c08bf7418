package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.egress.EgressMode;
import io.sandboxfactory.core.egress.EgressProxy;
import io.sandboxfactory.core.egress.EgressSessions;
import io.sandboxfactory.core.internal.retire.SessionRetirementCoordinator;
import io.sandboxfactory.core.session.SessionSpec;
import jakarta.inject.Inject;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Pipeline step: egress. At open, refuses an egress mode the provider cannot enforce (fail closed:
 * {@code allowlist} and {@code none} need sandboxes without a network route of their own) before
 * anything is created, and keeps the open's {@code --egress-allow}. On every start of a session in
 * mode {@code allowlist}, registers it with the factory's {@link EgressProxy} and puts the proxy URL,
 * with the session's capability, into the sandbox's env overlay ({@link #VARIABLES}); other modes
 * remove them. A sandbox that sees host directories (a network namespace of its own, Docker's
 * {@code none}) reaches the proxy through the session's {@link EgressChannels channel} and the
 * {@link EgressListener listener} started in it; any other (a pod) at the proxy's address.
 */
final class ApplyEgress {

    /** The variables the overlay sets in mode allowlist. */
    static final List<String> VARIABLES = List.of("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "NO_PROXY", "no_proxy");
    /** Never proxied: the sandbox's own loopback. */
    static final String NO_PROXY = "localhost,127.0.0.1,::1";

    private final EgressRules rules;
    private final EgressSessions sessions;
    private final EgressProxy proxy;
    private final SessionProvider provider;
    private final SessionRetirementCoordinator retirements;
    private final EgressChannels channels;

    @Inject
    ApplyEgress(EgressRules rules, EgressSessions sessions, EgressProxy proxy, SessionProvider provider,
                SessionRetirementCoordinator retirements, EgressChannels channels) {
        this.channels = Objects.requireNonNull(channels, "channels");
        this.retirements = Objects.requireNonNull(retirements, "retirements");
        this.rules = Objects.requireNonNull(rules, "rules");
        this.sessions = Objects.requireNonNull(sessions, "sessions");
        this.proxy = Objects.requireNonNull(proxy, "proxy");
        this.provider = Objects.requireNonNull(provider, "provider");
    }

    /** Refuses the open when the configured mode needs network isolation the provider, as configured, does not give. */
    void admit(SessionSpec spec) {
        EgressMode mode = rules.mode();
        if (mode != EgressMode.OPEN && !provider.sandboxes().capabilities().contains(SandboxCapability.NETWORK_ISOLATION)) {
            throw new InvalidInputException(StandardErrorCode.INVALID_CONFIG, "Session '" + spec.sessionId() + "' is refused: egress.mode "
                    + mode.configName() + " needs sandboxes without a network route of their own, but provider '" + provider.name()
                    + "' as configured gives them one (local: isolation none or network host; docker: a networkMode other than none;"
                    + " kubernetes: networkPolicy none), which no proxy can close.");
        }
    }

    /** Keeps the open's own allowed hosts with the session (after it is registered). */
    void remember(SessionSpec spec) {
        rules.remember(spec.sessionId(), spec.egressAllow());
    }

    /** Sets (mode allowlist) or clears the proxy variables of the sandbox's env overlay for this start. */
    void apply(SessionStart start) {
        if (!(start.sandbox() instanceof MastraSandbox<?> mastra)) {
            return;
        }
        Map<String, String> overlay = new LinkedHashMap<>();
        if (rules.mode() == EgressMode.ALLOWLIST) {
            String id = start.id();
            if (!sessions.registered(id)) {
                revokeOnRetirement(id);
            }
            String capability = sessions.register(id, () -> rules.enforced(id));
            String url = channels.enabled() ? throughChannel(start, capability) : direct(id, capability);
            overlay.put("HTTP_PROXY", url);
            overlay.put("HTTPS_PROXY", url);
            overlay.put("http_proxy", url);
            overlay.put("https_proxy", url);
            overlay.put("NO_PROXY", NO_PROXY);
            overlay.put("no_proxy", NO_PROXY);
        }
        mastra.setEnv(env -> {
            env.keySet().removeAll(VARIABLES);
            env.putAll(overlay);
            return env;
        });
    }

    /** The proxy's own address: for sandboxes with a route to it (a pod to {@code egress.proxyAddress}). */
    private String direct(String sessionId, String capability) {
        try {
            return proxy.url(capability);
        } catch (IOException e) {
            throw new SandboxException(StandardErrorCode.START_FAILED, "Session '" + sessionId + "' needs the egress proxy (egress.mode"
                    + " allowlist), which could not listen: " + e.getMessage() + ".", e);
        }
    }

    /** The listener in the sandbox, which carries each connection through the session's channel to the proxy. */
    private String throughChannel(SessionStart start, String capability) {
        channels.connect(start.id(), start.sandbox(), start.exec());
        return EgressProxy.url(capability, "127.0.0.1:" + EgressListener.PORT);
    }

    /** A retirement here ends the session's capability and channel (the proxy refuses it from then on), once. */
    private void revokeOnRetirement(String sessionId) {
        AtomicReference<Runnable> unregister = new AtomicReference<>();
        unregister.set(retirements.onInvalidate(sessionId, () -> {
            sessions.revoke(sessionId);
            channels.revoke(sessionId);
            unregister.get().run();
        }));
    }
}
