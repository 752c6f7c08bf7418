package io.sandboxfactory.store.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sandboxfactory.api.support.HostProcess;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SessionDefinitionTest {

    @Test
    void aBuilderNamingOnlyTheRequiredComponentsLeavesEveryOtherEmpty() {
        assertThat(SessionDefinition.builder("s1", "owner/repo", "work").build()).isEqualTo(new SessionDefinition("s1", "owner/repo", "work",
                Optional.empty(), List.of(), List.of(), Optional.empty(), Map.of(), Optional.empty(), Optional.empty(), Optional.empty()));
    }

    @Test
    void eachSetterFillsItsOwnComponent() {
        EnvironmentDefinition env = new EnvironmentDefinition(List.of(new EnvironmentDefinition.RepositoryDefinition("acme/api", "api",
                Optional.empty(), List.of("make"), List.of())), List.of("./link"), List.of());
        HostProcess owner = new HostProcess("host-a", 42, 1_700_000_000_000L, "");

        SessionDefinition built = SessionDefinition.builder("s1", "acme/api", "work").baseBranch("main").setupCommands(List.of("make setup"))
                .teardownCommands(List.of("make clean")).provider("local").labels(Map.of("team", "infra")).environment(env)
                .ephemeralOwner(owner).setupSecrets(List.of("NPM_TOKEN")).build();

        assertThat(built).isEqualTo(new SessionDefinition("s1", "acme/api", "work", Optional.of("main"), List.of("make setup"),
                List.of("make clean"), Optional.of("local"), Map.of("team", "infra"), Optional.of(env), Optional.of(owner),
                Optional.of(List.of("NPM_TOKEN"))));
    }

    @Test
    void anEmptyListOfSetupSecretsIsKeptApartFromNone() {
        assertThat(SessionDefinition.builder("s1", "o/r", "b").setupSecrets(List.of()).build().setupSecrets()).contains(List.of());
    }

    @Test
    void theDefinitionKeepsNoReferenceToTheBuildersLists() {
        List<String> setup = new ArrayList<>(List.of("make"));
        SessionDefinition built = SessionDefinition.builder("s1", "o/r", "b").setupCommands(setup).build();
        setup.add("make more");
        assertThat(built.setupCommands()).containsExactly("make");
    }

    @Test
    void theRequiredComponentsAreChecked() {
        assertThatThrownBy(() -> SessionDefinition.builder("s1", "o/r", null).build()).isInstanceOf(NullPointerException.class)
                .hasMessage("branch");
    }
}
