package io.sandboxfactory.core.session;

import io.sandboxfactory.core.internal.session.RepositoryLocator;
import io.sandboxfactory.core.internal.session.SessionDefaults;
import io.sandboxfactory.core.internal.session.SessionPlan;
import io.sandboxfactory.core.internal.session.SessionTimeouts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SessionSpecTest {

    @ParameterizedTest
    @CsvSource({
            "owner/name, name",
            "acme/web-app, web-app",
            "https://github.com/acme/api.git, api",
            "git@github.com:acme/cli.git, cli",
            "file:///srv/git/lib.git, lib",
            "/srv/git/tools/, tools",
            "https://host/x/.hidden.git, hidden",
            "https://host/x/we!rd name.git, we-rd-name",
            "https://host/..., repo",
    })
    void repoDirIsTheSanitizedLastName(String repository, String expected) {
        assertThat(RepositoryLocator.repoDir(repository)).isEqualTo(expected);
    }

    @Test
    void slugsExpandThroughTheTemplateAndUrlsStayAsTheyAre() {
        RepositoryLocator locator = new RepositoryLocator("https://git.example.com/{owner}/{name}.git");
        assertThat(locator.cloneUrl("acme/web")).isEqualTo("https://git.example.com/acme/web.git");
        assertThat(locator.cloneUrl("https://other/x.git")).isEqualTo("https://other/x.git");
        assertThat(locator.cloneUrl("/srv/x.git")).isEqualTo("/srv/x.git");
        assertThat(locator.defaultSource("acme/web", java.util.Optional.of(() -> "t0k")).mint().authorization())
                .hasValueSatisfying(a -> assertThat(a.token()).isEqualTo("t0k"));
        assertThat(locator.defaultSource("acme/web", java.util.Optional.empty()).mint().authorization()).isEmpty();
    }

    @Test
    void aSpecNeedsExactlyOneOfRepositoryOrEnvironment() {
        assertThatThrownBy(() -> SessionSpec.builder("s").branch("b").build())
                .hasMessage("Session 's' needs exactly one of a repository or an environment; it has neither.");
        assertThatThrownBy(() -> SessionSpec.builder("s").branch("b").repository("a/b")
                .environment(SessionEnvironment.of(List.of(EnvironmentRepository.of("c/d")))).build())
                .hasMessage("Session 's' needs exactly one of a repository or an environment; it has both.");
    }

    @Test
    void environmentRepositoriesNeedDistinctDirectories() {
        assertThatThrownBy(() -> SessionEnvironment.of(List.of(EnvironmentRepository.of("a/app"), EnvironmentRepository.of("b/app"))))
                .hasMessage("Repositories 'a/app' and 'b/app' would both be checked out in directory 'app'; each repository of an environment needs its own directory (set 'dir').");
    }

    @Test
    void defaultsFillWhatTheSpecLeavesOpen() {
        SessionDefaults defaults = new SessionDefaults(Optional.of("develop"), List.of("make"), List.of("make clean"), RepositoryLocator.github(),
                java.util.Optional.empty(), SessionTimeouts.defaults(), io.sandboxfactory.core.internal.git.RetryPolicy.defaults());
        SessionPlan plan = SessionPlan.of(SessionSpec.builder("s").repository("a/b").branch("x").build(), defaults);
        assertThat(plan.repositories().get(0).baseBranch()).contains("develop");
        assertThat(plan.repositories().get(0).setup().text()).isEqualTo("make");
        assertThat(plan.repositories().get(0).teardown().text()).isEqualTo("make clean");
        assertThat(plan.repositories().get(0).access().mint().cloneUrl()).isEqualTo("https://github.com/a/b.git");
        SessionPlan explicit = SessionPlan.of(SessionSpec.builder("s").repository("a/b").branch("x").baseBranch("main")
                .setupCommands().teardownCommands().build(), defaults);
        assertThat(explicit.repositories().get(0).setup().isEmpty()).isTrue();
        assertThat(explicit.repositories().get(0).teardown().isEmpty()).isTrue();
        assertThat(explicit.repositories().get(0).baseBranch()).contains("main");
    }

    @Test
    void setupSecretNamesAnOpenGaveAreKeptAndUsedByAnOpenThatGivesNone() {
        SessionDefaults defaults = new SessionDefaults(Optional.empty(), List.of(), List.of(), RepositoryLocator.github(), Optional.empty(),
                SessionTimeouts.defaults(), io.sandboxfactory.core.internal.git.RetryPolicy.defaults(), null, List.of("CONFIGURED"),
                java.util.Map.of("GIVEN", "g", "CONFIGURED", "c", "OWN", "o"));
        SessionSpecBuilder single = SessionSpec.builder("s").repository("a/b").branch("x");

        SessionPlan given = SessionPlan.of(single.setupSecrets("GIVEN").build(), defaults, Optional.of(List.of("STORED")));
        assertThat(given.setupSecrets().values()).containsOnlyKeys("GIVEN");
        assertThat(given.definition(Optional.empty()).setupSecrets()).as("kept with the session").contains(List.of("GIVEN"));

        SessionPlan resumed = SessionPlan.of(SessionSpec.builder("s").repository("a/b").branch("x").build(), defaults,
                Optional.of(List.of("GIVEN")));
        assertThat(resumed.setupSecrets().values()).as("an open naming none uses the kept names").containsOnlyKeys("GIVEN");
        assertThat(resumed.definition(Optional.empty()).setupSecrets()).contains(List.of("GIVEN"));

        SessionPlan configured = SessionPlan.of(SessionSpec.builder("s").repository("a/b").branch("x").build(), defaults, Optional.empty());
        assertThat(configured.setupSecrets().values()).containsOnlyKeys("CONFIGURED");
        assertThat(configured.definition(Optional.empty()).setupSecrets()).as("configured names are not kept").isEmpty();

        SessionEnvironment env = new SessionEnvironment(List.of(EnvironmentRepository.of("a/b")), List.of(), List.of(), List.of("OWN"));
        SessionPlan ofEnvironment = SessionPlan.of(SessionSpec.builder("e").environment(env).branch("x").build(), defaults, Optional.empty());
        assertThat(ofEnvironment.setupSecrets().values()).containsOnlyKeys("OWN");
        assertThat(ofEnvironment.definition(Optional.empty()).setupSecrets()).as("an environment's own names are kept").contains(List.of("OWN"));
        SessionEnvironment stored = new SessionEnvironment(List.of(EnvironmentRepository.of("a/b")), List.of(), List.of(), List.of());
        assertThat(SessionPlan.of(SessionSpec.builder("e").environment(stored).branch("x").build(), defaults, Optional.of(List.of("OWN")))
                .setupSecrets().values()).as("a stored environment, resumed").containsOnlyKeys("OWN");
    }
}
