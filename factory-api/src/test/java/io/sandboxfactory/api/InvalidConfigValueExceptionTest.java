package io.sandboxfactory.api;

import io.sandboxfactory.api.error.ErrorKind;
import io.sandboxfactory.api.error.StandardErrorCode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sandboxfactory.api.support.EnvironmentVariables;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InvalidConfigValueExceptionTest {

    @Test
    void oneProblemReadsAsOneSentenceWithoutTheSectionPrefix() {
        InvalidConfigValueException e = new InvalidConfigValueException("root", "tmp", "it must be an absolute path.");

        assertThat(e.getMessage()).isEqualTo("root 'tmp' is invalid; it must be an absolute path.");
        assertThat(e.errorCode()).isEqualTo(StandardErrorCode.INVALID_CONFIG.toErrorCode());
        assertThat(e.errorCode().kind()).isEqualTo(ErrorKind.BAD_INPUT);
        assertThat(e.problems()).containsExactly(new InvalidConfigValueException.Problem("root", "tmp", "it must be an absolute path"));
    }

    @Test
    void theCollectorReportsEveryProblemAtOnceIncludingThoseOfHelpers() {
        InvalidConfigValueException.Collector problems = new InvalidConfigValueException.Collector();
        problems.reject("image", "a b", "it must have no spaces");
        long parsed = problems.check(() -> {
            throw new InvalidConfigValueException("memory", "12x", "it must be a size");
        }, -1L);
        problems.check(() -> { });

        assertThat(parsed).isEqualTo(-1L);
        assertThat(problems.isEmpty()).isFalse();
        assertThatThrownBy(problems::throwIfAny).isInstanceOfSatisfying(InvalidConfigValueException.class,
                e -> assertThat(e.problems()).extracting(InvalidConfigValueException.Problem::key).containsExactly("image", "memory"));
    }

    @Test
    void anEmptyCollectorThrowsNothing() {
        InvalidConfigValueException.Collector problems = new InvalidConfigValueException.Collector();
        problems.throwIfAny();
        assertThat(problems.isEmpty()).isTrue();
        assertThatThrownBy(() -> new InvalidConfigValueException(List.of())).isInstanceOf(IllegalArgumentException.class)
                .isNotInstanceOf(InvalidInputException.class);
    }

    @Test
    void environmentMapsAreCheckedWithoutShowingValues() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("GOOD", "x");
        env.put("A=B", "secret");
        env.put("NUL", "se\0cret");
        env.put("1ST", "ok");
        InvalidConfigValueException.Collector lenient = new InvalidConfigValueException.Collector();
        InvalidConfigValueException.Collector narrow = new InvalidConfigValueException.Collector();

        EnvironmentVariables.check(env, "env", lenient);
        EnvironmentVariables.checkIdentifiers(env, "env", narrow);

        assertThatThrownBy(lenient::throwIfAny).isInstanceOfSatisfying(InvalidConfigValueException.class, e -> {
            assertThat(e.problems()).containsExactly(
                    new InvalidConfigValueException.Problem("env", "A=B", "a variable name must be non-empty and contain neither '=' nor NUL"),
                    new InvalidConfigValueException.Problem("env.NUL", null, "it must be set and contain no NUL character"));
            assertThat(e.getMessage()).doesNotContain("secret", "se\0cret");
        });
        assertThatThrownBy(narrow::throwIfAny).isInstanceOfSatisfying(InvalidConfigValueException.class,
                e -> assertThat(e.problems()).extracting(InvalidConfigValueException.Problem::key).containsExactly("env", "env.NUL", "env"));
    }
}
