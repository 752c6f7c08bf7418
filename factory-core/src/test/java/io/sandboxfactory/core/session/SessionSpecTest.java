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
}
