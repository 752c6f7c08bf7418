package io.sandboxfactory.core;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandRequest;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.host.RepositoryAccess;
import io.sandboxfactory.api.host.RepositoryAccessSource;
import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.internal.config.ResolvedConfig;
import io.sandboxfactory.core.config.Timeouts;
import io.sandboxfactory.core.internal.git.GitCredentials;
import io.sandboxfactory.core.internal.git.RetryPolicy;
import io.sandboxfactory.core.internal.session.RepositoryLocator;
import io.sandboxfactory.core.internal.session.SessionDefaults;
import io.sandboxfactory.core.internal.session.SessionPlan;
import io.sandboxfactory.core.internal.session.SessionTimeouts;
import io.sandboxfactory.core.session.EnvironmentRepository;
import io.sandboxfactory.core.session.SessionEnvironment;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.session.StartMode;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.provider.local.LocalProviderConfig;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every record or class that can hold a token renders without it: each is built with a token in
 * every place one can go — as an authorization, in an environment, in a host's access source or
 * token supplier that prints its own fields — and its {@code toString()} must not contain it.
 */
class TokenToStringTest {

    private static final String TOKEN = "tok-visible-if-leaked-0123456789";

    @TempDir
    Path tmp;

    /** An access source as a host might write it: a record, whose own toString shows its fields. */
    record FixedAccess(RepositoryAccess access) implements RepositoryAccessSource {
        @Override
        public RepositoryAccess mint() {
            return access;
        }
    }

    /** A token supplier as a host might write it. */
    record FixedToken(String token) implements Supplier<String> {
        @Override
        public String get() {
            return token;
        }
    }

    private static RepositoryAccess access() {
        return new RepositoryAccess("https://git.example.invalid/a/b.git", Optional.of(new RepositoryAccess.Authorization(TOKEN, "bot")));
    }

    @Test
    void noValueThatCanHoldATokenShowsIt() throws Exception {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("Authorization", RepositoryAccess.Authorization.bearer(TOKEN));
        values.put("RepositoryAccess", access());
        values.put("CommandOptions", CommandOptions.builder().env("GH_TOKEN", TOKEN).cwd("/w").build());
        values.put("CommandRequest", new CommandRequest("git fetch", Map.of("GH_TOKEN", TOKEN), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), 1024));
        values.put("GitCredentials", GitCredentials.of(access()));
        values.put("FactorySandboxContext", FactorySandboxContext.builder("s1").repoFullName("a/b")
                .repositoryAccess(new FixedAccess(access())).build());
        SessionSpec spec = SessionSpec.builder("s1").repository("a/b").branch("work").repositoryAccess(new FixedAccess(access()))
                .startMode(StartMode.LAZY).build();
        values.put("SessionSpec", spec);
        SessionSpec environment = SessionSpec.builder("s2").branch("work").environment(SessionEnvironment.of(List.of(
                new EnvironmentRepository("a/b", Optional.empty(), Optional.empty(), List.of(), List.of(),
                        Optional.of(new FixedAccess(access())))))).build();
        values.put("SessionSpec (environment)", environment);
        values.put("SessionEnvironment", environment.environment().orElseThrow());
        SessionDefaults defaults = new SessionDefaults(Optional.of("main"), List.of(), List.of(), RepositoryLocator.github(),
                Optional.of(new FixedToken(TOKEN)), SessionTimeouts.defaults(), RetryPolicy.defaults());
        values.put("SessionDefaults", defaults);
        values.put("SessionPlan", SessionPlan.of(SessionSpec.builder("s3").repository("a/b").branch("work").build(), defaults));
        values.put("LocalProviderConfig", new LocalProviderConfig(null, List.of(), false, Map.of("NPM_TOKEN", TOKEN)));
        FactoryConfig config = FactoryConfig.builder().provider("local")
                .providerSection("local", Map.of("env", Map.of("NPM_TOKEN", TOKEN))).build();
        values.put("FactoryConfig", config);
        values.put("ResolvedConfig", new ResolvedConfig("local", tmp, "me", config.repository(), Timeouts.defaults(), io.sandboxfactory.core.config.Lifecycle.off(), Map.of(),
                Map.of("local", new LocalProviderConfig(null, List.of(), false, Map.of("NPM_TOKEN", TOKEN))), "test",
                io.sandboxfactory.core.config.StoreConfig.defaults(), null, null, null, null, null, null));

        Path remote = Git.bareRepository(tmp.resolve("remote/app.git"));
        try (SandboxFactory factory = SandboxFactory.builder().config(config).environment(Map.of()).stateDirectory(tmp.resolve("state"))
                .repositoryToken(new FixedToken(TOKEN)).build()) {
            SessionHandle handle = factory.openSession(SessionSpec.builder("live").repository(remote.toString()).branch("work")
                    .repositoryAccess(new FixedAccess(new RepositoryAccess(remote.toString(),
                            Optional.of(RepositoryAccess.Authorization.bearer(TOKEN))))).build());
            MastraSandbox<?> sandbox = handle.sandbox();
            sandbox.setEnv(env -> {
                env.put("GH_TOKEN", TOKEN);
                return env;
            });
            values.put("MastraSandbox with the token in its overlay", sandbox);
            values.put("SessionHandle", handle);
            values.put("SessionEntry", factory.memo().peek("live").orElseThrow());
            values.put("SandboxFactory", factory);
            values.put("SessionRecord", factory.sessionStore().find("live").orElseThrow());
            values.put("ResolvedConfig of a live factory", factory.config());

            SoftAssertions softly = new SoftAssertions();
            values.forEach((what, value) -> softly.assertThat(String.valueOf(value)).as("%s.toString()", what).doesNotContain(TOKEN));
            softly.assertAll();
        }
        assertThat(values).hasSizeGreaterThanOrEqualTo(20);
    }
}
