package io.sandboxfactory.tck;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.sandboxfactory.api.SandboxProvider;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.SandboxFactoryBuilder;
import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.retire.RetireMode;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * The session machinery on top of the provider under test: builds {@link SandboxFactory}
 * instances on one state directory (each one like a separate process), selecting the provider by
 * name and binding its config from a config section, and serves a fixture repository. {@link
 * #close()} retires every session it opened (destroying its sandbox) and closes every factory.
 */
final class SessionBench implements AutoCloseable {

    private final ContractBench bench;
    private final List<SandboxFactory> factories = new ArrayList<>();
    private final Set<String> sessions = new LinkedHashSet<>();
    private Path repository;

    SessionBench(ContractBench bench) {
        this.bench = bench;
    }

    /** A new factory on this test's state directory, as a new process would build it. */
    @SuppressWarnings("rawtypes")
    SandboxFactory openFactory() {
        String name = bench.providerName();
        SandboxProvider<?> provider = bench.provider();
        boolean discoverable = ServiceLoader.load(SandboxProvider.class, provider.getClass().getClassLoader()).stream()
                .anyMatch(p -> p.type().equals(provider.getClass()));
        ContractRule.DISCOVERABLE.require(discoverable, () -> "ServiceLoader does not find " + provider.getClass().getName()
                + ", so a SandboxFactory cannot select provider '" + name + "'");
        Map<String, Object> section = ContractRule.CONFIG_BINDS.attempt("writing the config of provider '" + name + "' as a config section",
                () -> configSection(bench.underTest()));
        SandboxFactoryBuilder builder = SandboxFactory.builder()
                .config(FactoryConfig.builder().providerSection(name, section).build())
                .provider(name)
                .stateDirectory(bench.stateDirectory().resolve("factory"))
                .owner(bench.owner())
                .environment(Map.of())
                .classLoader(provider.getClass().getClassLoader());
        bench.underTest().hostObjects(bench.workDirectory()).forEach((type, value) -> register(builder, type, value));
        SandboxFactory factory = ContractRule.CONFIG_BINDS.attempt("building a SandboxFactory with provider '" + name
                + "' and the section " + section, builder::build);
        synchronized (this) {
            factories.add(factory);
        }
        return factory;
    }

    private static <T> void register(SandboxFactoryBuilder builder, Class<T> type, Object value) {
        builder.hostObject(type, type.cast(value));
    }

    private <C> Map<String, Object> configSection(ProviderUnderTest<C> underTest) {
        ObjectMapper mapper = new ObjectMapper()
                .registerModule(new Jdk8Module())
                .registerModule(new JavaTimeModule())
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
        C config = underTest.config(bench.workDirectory());
        return config == null ? Map.of() : mapper.convertValue(config, new TypeReference<Map<String, Object>>() { });
    }

    /** Remembers {@code sessionId} so that {@link #close()} retires it. */
    synchronized String track(String sessionId) {
        sessions.add(sessionId);
        return sessionId;
    }

    /** The clone URL of the fixture repository: one commit on {@code main} with a README. */
    synchronized String repository() throws Exception {
        if (repository == null) {
            repository = FixtureRepository.create(bench.stateDirectory().resolve("remote"));
        }
        return bench.underTest().cloneUrl(repository);
    }

    @Override
    public synchronized void close() {
        if (!factories.isEmpty()) {
            SandboxFactory last = factories.get(factories.size() - 1);
            for (String session : sessions) {
                try {
                    last.retire(session, RetireMode.DESTROY);
                } catch (RuntimeException ignored) {
                    // Best effort: the verdict is already in, this only avoids leaving sandboxes behind.
                }
            }
        }
        for (SandboxFactory factory : factories) {
            try {
                factory.close();
            } catch (RuntimeException ignored) {
                // Closing releases resources only.
            }
        }
    }
}
