package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.capability.AttachableSandbox;
import io.sandboxfactory.api.FactorySandboxContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The attach a real container describes, run as {@code factory shell} runs it without a terminal:
 * the docker client on this host, commands on its stdin.
 */
@ExtendWith(RequiresDockerEngine.class)
class DockerAttachIT {

    private final DockerFixture fixture = new DockerFixture();

    @AfterEach
    void cleanUp() {
        fixture.close();
    }

    @Test
    void theShellRunsInTheContainerInTheDirectoryWithTheProvidersAndTheSessionsVariables() throws Exception {
        DockerFactorySandbox factory = fixture.factory(fixture.owner(), b -> b.env(Map.of("BASE_ONLY", "base-value")));
        DockerSandbox sandbox = factory.create(FactorySandboxContext.of(fixture.sessionId("attach")));
        sandbox.setEnv(env -> {
            env.put("SESSION_TOKEN", "session-secret");
            return env;
        });
        sandbox.start();
        String directory = sandbox.workingDirectory().orElseThrow();

        AttachableSandbox.Attach attach = sandbox.attach(new AttachableSandbox.Request(directory, false, System.getenv()));

        assertThat(attach.command()).noneMatch(argument -> argument.contains("session-secret") || argument.contains("base-value"));
        ProcessBuilder builder = new ProcessBuilder(attach.command()).redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().clear();
        builder.environment().putAll(attach.environment());
        Process shell = builder.start();
        try (OutputStream stdin = shell.getOutputStream()) {
            stdin.write("[ -f /.dockerenv ] && echo in-container; pwd; echo \"$BASE_ONLY/$SESSION_TOKEN\"; exit 6\n"
                    .getBytes(StandardCharsets.UTF_8));
        }
        String stdout = new String(shell.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(shell.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(shell.exitValue()).isEqualTo(6);
        assertThat(stdout).isEqualTo("in-container\n" + directory + "\nbase-value/session-secret\n");
    }
}
