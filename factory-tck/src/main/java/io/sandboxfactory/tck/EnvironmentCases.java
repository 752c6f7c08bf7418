package io.sandboxfactory.tck;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.MastraSandbox;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.util.List;
import java.util.Map;

import static io.sandboxfactory.tck.ContractBench.PROBE_TIMEOUT;
import static io.sandboxfactory.tck.ContractRule.ENV_PER_CALL;
import static io.sandboxfactory.tck.ContractRule.ENV_PRECEDENCE;
import static io.sandboxfactory.tck.ContractRule.ENV_VERBATIM;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The environment of a command: overlay under per-call values, nothing kept between commands, values verbatim. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class EnvironmentCases {

    private static final String SHOW = "printf '%s|%s|%s' \"${TCK_A-unset}\" \"${TCK_B-unset}\" \"${TCK_C-unset}\"";

    abstract ContractBench bench();

    private MastraSandbox<?> sandbox;

    @BeforeEach
    void createSandbox() {
        sandbox = bench().create(bench().newSessionId("env"));
    }

    @Test
    @Order(1)
    @DisplayName("per-call env beats the overlay set with setEnv")
    void perCallBeatsOverlay() {
        sandbox.setEnv(env -> {
            env.put("TCK_A", "overlay");
            env.put("TCK_B", "overlay");
            return env;
        });
        String seen = show(ENV_PRECEDENCE, Map.of("TCK_B", "call", "TCK_C", "call"));
        ENV_PRECEDENCE.requireEquals("overlay|call|call", seen, "TCK_A|TCK_B|TCK_C with TCK_A,TCK_B in the overlay and TCK_B,TCK_C per call");
    }

    @Test
    @Order(2)
    @DisplayName("per-call env and removed overlay variables do not leak into later commands")
    void environmentDoesNotLeak() {
        sandbox.setEnv(env -> {
            env.put("TCK_A", "overlay");
            return env;
        });
        show(ENV_PER_CALL, Map.of("TCK_B", "first-call"));
        String afterCall = show(ENV_PER_CALL, Map.of());
        ENV_PER_CALL.requireEquals("overlay|unset|unset", afterCall, "TCK_A|TCK_B|TCK_C in a command after one that set TCK_B per call");

        sandbox.setEnv(env -> {
            env.remove("TCK_A");
            return env;
        });
        String afterRemoval = show(ENV_PER_CALL, Map.of());
        ENV_PER_CALL.requireEquals("unset|unset|unset", afterRemoval, "TCK_A|TCK_B|TCK_C after TCK_A was removed from the overlay");
    }

    @Test
    @Order(3)
    @DisplayName("awkward environment values arrive verbatim")
    void valuesArriveVerbatim() {
        for (String value : List.of("two words", "it's \"quoted\"", "$HOME and `id`", "new\nline", "ünïcødé ✓", "=equals=", "")) {
            sandbox.setEnv(env -> {
                env.put("TCK_A", value);
                return env;
            });
            CommandResult result = ENV_VERBATIM.attempt("printing an environment value", () -> sandbox.executeCommand(
                    "printf '%s|%s' \"$TCK_A\" \"$TCK_B\"", List.of(),
                    CommandOptions.builder().env("TCK_B", value).timeout(PROBE_TIMEOUT).build()));
            ENV_VERBATIM.requireEquals(value + "|" + value, result.stdout(), "an overlay and a per-call value set to '" + value + "'");
        }
    }

    private String show(ContractRule rule, Map<String, String> perCall) {
        CommandResult result = rule.attempt("printing the environment", () -> sandbox.executeCommand(SHOW, List.of(),
                CommandOptions.builder().env(perCall).timeout(PROBE_TIMEOUT).build()));
        rule.requireEquals(0, result.exitCode(), "the exit code of printf (stderr '" + result.stderr().strip() + "')");
        return result.stdout();
    }
}
