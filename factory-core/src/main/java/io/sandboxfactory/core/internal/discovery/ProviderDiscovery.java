package io.sandboxfactory.core.internal.discovery;

import io.sandboxfactory.api.SandboxProvider;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.FactoryConfigurationException;
import io.sandboxfactory.core.DiscoveredProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Finds the {@link SandboxProvider}s visible to one class loader with {@link ServiceLoader}.
 *
 * <p>Guarantees: every problem is reported, none is swallowed — a broken services entry (class
 * missing, not a provider, constructor failing), an invalid name, a missing config type, a name
 * declared twice, an error code whose name the framework or another provider already uses
 * ({@link ErrorCodeOwners}). They all end up in one {@link FactoryConfigurationException} (code {@code
 * PROVIDER_DISCOVERY_FAILED}) listing each problem with the class and, when known, the jar. Each
 * call runs a fresh ServiceLoader: nothing is cached between calls or factories.
 */
public final class ProviderDiscovery {

    /** What a provider name must match. */
    public static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]*");

    private static final Logger LOG = LoggerFactory.getLogger(ProviderDiscovery.class);
    private static final String SERVICE = SandboxProvider.class.getName();

    /** Discovers the providers {@code loader} sees, or fails listing every problem found. */
    public DiscoveredProviders discover(ClassLoader loader) {
        return discover(loader, new ErrorCodeOwners());
    }

    /** {@link #discover(ClassLoader)}, each provider's error codes claimed in {@code codeOwners}. */
    public DiscoveredProviders discover(ClassLoader loader, ErrorCodeOwners codeOwners) {
        Objects.requireNonNull(loader, "loader");
        ServiceFileIndex index = new ServiceFileIndex(loader, SERVICE);
        Set<String> problems = new LinkedHashSet<>();
        Map<String, DiscoveredProvider> byName = new LinkedHashMap<>();

        for (SandboxProvider<?> provider : load(loader, index, problems)) {
            describe(provider, problems).ifPresent(found -> {
                DiscoveredProvider earlier = byName.putIfAbsent(found.name(), found);
                if (earlier != null) {
                    problems.add(duplicateMessage(earlier, found));
                }
                claimErrorCodes(found, codeOwners, problems);
            });
        }
        if (!problems.isEmpty()) {
            throw failure(problems);
        }
        byName.values().forEach(p -> LOG.debug("Discovered sandbox provider '{}': {}", p.name(), p.origin()));
        return new DiscoveredProviders(new ArrayList<>(byName.values()));
    }

    /**
     * Iterates by hand so one broken entry does not hide the others: ServiceLoader reports each bad
     * entry as an error from {@code hasNext()} or {@code next()} and then moves on to the next one.
     */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static List<SandboxProvider<?>> load(ClassLoader loader, ServiceFileIndex index, Set<String> problems) {
        List<SandboxProvider<?>> providers = new ArrayList<>();
        Iterator<SandboxProvider> it = ServiceLoader.load(SandboxProvider.class, loader).iterator();
        while (true) {
            try {
                if (!it.hasNext()) {
                    break;
                }
                providers.add(it.next());
            } catch (ServiceConfigurationError e) {
                // A failure that repeats identically (an unreadable class path) would loop forever.
                if (!problems.add(describe(e, index))) {
                    break;
                }
            }
        }
        return providers;
    }

    private static String describe(ServiceConfigurationError error, ServiceFileIndex index) {
        String message = String.valueOf(error.getMessage());
        if (message.startsWith(SERVICE + ": ")) {
            message = message.substring(SERVICE.length() + 2);
        }
        message = message.replaceFirst("^(\\S+) not a subtype$", "$1 does not implement " + SERVICE);
        StringBuilder text = new StringBuilder(message);
        index.classMentionedIn(message).ifPresent(className -> {
            List<String> where = index.locationsOf(className);
            text.append(" (listed in META-INF/services of ").append(String.join(", ", where)).append(')');
        });
        if (error.getCause() != null) {
            text.append(": ").append(error.getCause());
        }
        return text.toString();
    }

    private static Optional<DiscoveredProvider> describe(SandboxProvider<?> provider, Set<String> problems) {
        Class<?> type = provider.getClass();
        String location = Locations.ofClass(type);
        String name;
        Class<?> configType;
        String description;
        try {
            name = provider.name();
            configType = provider.configType();
            description = provider.description();
        } catch (RuntimeException | LinkageError e) {
            problems.add("Sandbox provider class " + type.getName() + " (from " + location + ") failed to describe itself: " + e);
            return Optional.empty();
        }
        if (name == null || !NAME.matcher(name).matches()) {
            problems.add("Sandbox provider class " + type.getName() + " (from " + location + ") has invalid name '" + name
                    + "'; provider names must match " + NAME.pattern() + ".");
            return Optional.empty();
        }
        if (configType == null) {
            problems.add("Sandbox provider '" + name + "' (" + type.getName() + " from " + location
                    + ") returned no configType(); it must return the class its config section binds to.");
            return Optional.empty();
        }
        return Optional.of(new DiscoveredProvider(name, provider, type, configType, location, description));
    }

    private static void claimErrorCodes(DiscoveredProvider found, ErrorCodeOwners codeOwners, Set<String> problems) {
        String owner = "sandbox provider '" + found.name() + "' of " + found.origin();
        try {
            problems.addAll(codeOwners.claim(owner, found.provider().errorCodes()));
        } catch (RuntimeException | LinkageError e) {
            problems.add("Sandbox provider '" + found.name() + "' of " + found.origin() + " failed to list its error codes: " + e);
        }
    }

    static String duplicateMessage(DiscoveredProvider first, DiscoveredProvider second) {
        return "Sandbox provider name '" + first.name() + "' is declared twice: by " + first.origin() + " and by "
                + second.origin() + "; remove one of them from the class path.";
    }

    private static FactoryConfigurationException failure(Set<String> problems) {
        if (problems.size() == 1) {
            return new FactoryConfigurationException(StandardErrorCode.PROVIDER_DISCOVERY_FAILED,
                    "Sandbox provider discovery failed: " + problems.iterator().next());
        }
        StringBuilder text = new StringBuilder("Sandbox provider discovery failed with " + problems.size() + " problems:");
        problems.forEach(p -> text.append(System.lineSeparator()).append("  - ").append(p));
        return new FactoryConfigurationException(StandardErrorCode.PROVIDER_DISCOVERY_FAILED, text.toString());
    }
}
