package io.sandboxfactory.core;

import io.sandboxfactory.api.error.ErrorKind;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.config.InvalidConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A real file with several errors in one section, of the factory's own and of the shipped
 * providers' (local, docker): every one comes out of one build, each naming the full key, the
 * value, the rule and where the value came from, and nothing is created.
 */
class AllConfigErrorsAtOnceTest {

    @TempDir
    Path tmp;

    @Test
    void everyErrorOfEverySectionIsReportedByOneBuildAndNothingIsCreated() throws IOException {
        Path file = Files.writeString(tmp.resolve("factory.yaml"), """
                provider: local
                colour: red
                timeouts:
                  setup: soon
                  command: PT-5S
                  probe: [1, 2]
                  bogus: 1
                  alsoBogus: 2
                store:
                  poolSize: 99
                  leaseTtl: 1ms
                  schema: "a;drop"
                providers:
                  local:
                    root: relative/sessions
                    inheritEnvironment: maybe
                    env: {"A=B": x}
                    colour: red
                  docker:
                    memory: 12x
                    cpus: lots
                    networkMode: no net
                    volumes: [/a:/data, /b:/data]
                    flavour: vanilla
                    shade: dark
                """);
        Path state = tmp.resolve("state");
        String in = "in " + file;

        InvalidConfigException e = catchThrowableOfType(InvalidConfigException.class, () -> SandboxFactory.builder()
                .config(file)
                .stateDirectory(state)
                .workingDirectory(tmp)
                .environment(Map.of("FACTORY_PROVIDERS_DOCKER_IMAGE", "two words"))
                .build());

        assertThat(e.errorCode()).isEqualTo(StandardErrorCode.INVALID_CONFIG.toErrorCode());
        assertThat(e.kind()).isEqualTo(ErrorKind.BAD_INPUT);
        assertThat(e.problems()).containsExactlyInAnyOrder(
                "Unknown configuration key 'colour' " + in + "; known keys there: [cache, egress, environments, git, journal, lifecycle, owner,"
                        + " provider, providers, repository, stateDir, store, templates, timeouts].",
                "Invalid value for configuration key 'timeouts.setup' " + in + ": Duration 'soon' is invalid; write it as ISO-8601"
                        + " (PT15M) or as a number with a unit (500ms, 30s, 15m, 2h, 1d).",
                "Invalid value for configuration key 'timeouts.probe' " + in + ": A list is invalid; write it as ISO-8601 (PT15M) or"
                        + " as a number with a unit (500ms, 30s, 15m, 2h, 1d).",
                "Unknown configuration key 'timeouts.bogus' " + in + "; known keys there: [checkout, command, network, probe, setup,"
                        + " teardown].",
                "Unknown configuration key 'timeouts.alsoBogus' " + in + "; known keys there: [checkout, command, network, probe, setup,"
                        + " teardown].",
                "Invalid value '-5s' for configuration key 'timeouts.command' " + in + "; it must be positive.",
                "Invalid value '99' for configuration key 'store.poolSize' " + in + "; it must be between 1 and 64.",
                "Invalid value '1ms' for configuration key 'store.leaseTtl' " + in + "; it must be at least 300 ms.",
                "Invalid value 'a;drop' for configuration key 'store.schema' " + in + "; it must match [A-Za-z_][A-Za-z0-9_]{0,62}.",
                "Invalid value 'maybe' for configuration key 'providers.local.inheritEnvironment' " + in + "; expected Boolean.",
                "Unknown configuration key 'providers.local.colour' " + in + "; known keys there: [env, inheritEnvironment, isolation, network, passEnv, root, volumes].",
                "Invalid value 'relative/sessions' for configuration key 'providers.local.root' " + in
                        + "; it must be an absolute path or start with ~/.",
                "Invalid value 'A=B' for configuration key 'providers.local.env' " + in
                        + "; a variable name must be non-empty and contain neither '=' nor NUL.",
                "Invalid value 'lots' for configuration key 'providers.docker.cpus' " + in + "; expected Double.",
                "Unknown configuration key 'providers.docker.flavour' " + in + "; known keys there: " + dockerKeys() + ".",
                "Unknown configuration key 'providers.docker.shade' " + in + "; known keys there: " + dockerKeys() + ".",
                "Invalid value '/b:/data' for configuration key 'providers.docker.volumes[1]' " + in
                        + "; it mounts a second directory at /data; each container path may be mounted once.",
                "Invalid value 'two words' for configuration key 'providers.docker.image' from environment variable"
                        + " FACTORY_PROVIDERS_DOCKER_IMAGE; it must be an image reference without spaces, such as alpine/git:latest.",
                "Invalid value '12x' for configuration key 'providers.docker.memory' " + in + "; it must be a number of bytes with an"
                        + " optional binary unit b, k, m, g or t (for example 536870912, 512m or 2g).",
                "Invalid value 'no net' for configuration key 'providers.docker.networkMode' " + in + "; it must be none, host, bridge"
                        + " or a network name made of letters, digits, '_', '.', ':' and '-'.");
        assertThat(e.getMessage()).startsWith("The configuration has 20 errors:");
        assertThat(state).doesNotExist();
        try (Stream<Path> created = Files.list(tmp)) {
            assertThat(created).containsExactly(file);
        }
    }

    @Test
    void everyInvalidEnvironmentIsReportedNotOnlyTheFirst() throws IOException {
        Path file = Files.writeString(tmp.resolve("factory.yaml"), """
                environments:
                  empty:
                    repos: []
                  fine:
                    repos:
                      - repo: octo/web
                  nameless:
                    repos:
                      - dir: web
                  twice:
                    repos:
                      - {repo: octo/a, dir: same}
                      - {repo: octo/b, dir: same}
                """);
        Path state = tmp.resolve("state");

        InvalidConfigException e = catchThrowableOfType(InvalidConfigException.class, () -> SandboxFactory.builder()
                .config(file).stateDirectory(state).workingDirectory(tmp).environment(Map.of()).build());

        assertThat(e.problems()).hasSize(3);
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("Invalid configuration at 'environments.empty' in " + file)
                .contains("needs at least one repository"));
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("Invalid configuration at 'environments.nameless' in " + file)
                .contains("needs 'repo'"));
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("Invalid configuration at 'environments.twice' in " + file)
                .contains("same"));
        assertThat(state).doesNotExist();
    }

    private static String dockerKeys() {
        return "[apiVersion, capAdd, cpus, env, execChannel, host, image, init, labels, memory, networkMode, pidsLimit,"
                + " readOnlyRootFilesystem, runtime, useEnvironment, user, volumes, workingDirectory]";
    }
}
