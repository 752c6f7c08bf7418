package io.sandboxfactory.cli.output;

import io.sandboxfactory.api.error.ErrorCode;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.SandboxStartHookException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.cli.BadInputException;
import io.sandboxfactory.cli.CliErrorCode;
import io.sandboxfactory.cli.ExitCodes;
import io.sandboxfactory.cli.GlobalOptions;
import io.sandboxfactory.core.FactoryConfigurationException;
import io.sandboxfactory.provider.docker.DockerErrorCode;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The exit code and the JSON code come from the failure's {@link ErrorCode}, not from its Java type. */
class ErrorReporterTest {

    @Test
    void theExitCodeComesFromTheKind() {
        assertThat(ErrorReporter.exitCode(new InvalidInputException(StandardErrorCode.INVALID_REF, "bad ref"))).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(ErrorReporter.exitCode(new BadInputException("bad flag"))).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(ErrorReporter.exitCode(new SandboxDestroyedException("gone"))).isEqualTo(ExitCodes.INFRASTRUCTURE);
        assertThat(ErrorReporter.exitCode(new SandboxException(StandardErrorCode.CLONE_FAILED, "clone failed"))).isEqualTo(ExitCodes.INFRASTRUCTURE);
        assertThat(ErrorReporter.exitCode(new FactoryConfigurationException(StandardErrorCode.INVALID_CONFIG, "bad key"))).isEqualTo(ExitCodes.BAD_INPUT);
    }

    @Test
    void aFactoryConfigurationExceptionIsNotBadInputWhenItsCodeSaysOtherwise() {
        FactoryConfigurationException engineDown = new FactoryConfigurationException(DockerErrorCode.DOCKER_UNAVAILABLE, "no engine");
        assertThat(ErrorReporter.exitCode(engineDown)).isEqualTo(ExitCodes.INFRASTRUCTURE);
        assertThat(ErrorReporter.errorCode(engineDown)).isEqualTo(DockerErrorCode.DOCKER_UNAVAILABLE.toErrorCode());
    }

    @Test
    void anUncodedIllegalArgumentExceptionIsAnInternalErrorNotBadInput() {
        IllegalArgumentException bug = new IllegalArgumentException("index -1");
        assertThat(ErrorReporter.exitCode(bug)).isEqualTo(ExitCodes.INFRASTRUCTURE);
        assertThat(ErrorReporter.errorCode(bug)).isEqualTo(CliErrorCode.FAILED.toErrorCode());
        assertThat(ErrorReporter.exitCode(new IllegalStateException("wrapped", bug))).isEqualTo(ExitCodes.INFRASTRUCTURE);
    }

    @Test
    void theOutermostCodeOnTheChainWins() {
        SandboxStartHookException hook = new SandboxStartHookException("s1", new InvalidInputException(StandardErrorCode.INVALID_REF, "bad base"));
        assertThat(ErrorReporter.errorCode(hook)).isEqualTo(StandardErrorCode.START_HOOK_FAILED.toErrorCode());
        assertThat(ErrorReporter.errorCode(new RuntimeException("wrapper", new InvalidInputException(StandardErrorCode.INVALID_LABEL, "x"))))
                .isEqualTo(StandardErrorCode.INVALID_LABEL.toErrorCode());
    }

    @Test
    void theJsonDocumentCarriesTheCodesName() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        GlobalOptions global = new GlobalOptions();
        global.json = true;
        ErrorReporter reporter = new ErrorReporter(new Console(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), Map.of()), global);

        int exit = reporter.handleExecutionException(new InvalidInputException(StandardErrorCode.INVALID_SESSION_ID, "Session id 'a b' is invalid."),
                null, null);

        assertThat(exit).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("\"code\"").contains("INVALID_SESSION_ID").contains("\"exitCode\"");
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("Session id 'a b' is invalid.");
    }
}
