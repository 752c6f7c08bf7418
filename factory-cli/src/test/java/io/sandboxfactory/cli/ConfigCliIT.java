package io.sandboxfactory.cli;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code factory config} as users run it: the real jar with a real config file, environment and
 * flags; with the factory daemon off and on.
 */
@ParameterizedClass(name = "daemon {0}")
@EnumSource(DaemonMode.class)
class ConfigCliIT {

    private static final String TOKEN = "ghp_ConfigCliSecret42";

    @Parameter
    DaemonMode mode;

    @TempDir
    Path temp;

    Path state;
    Path config;
    CliProcess cli;

    @BeforeEach
    void setUp() throws Exception {
        state = temp.resolve("state");
        config = Files.writeString(temp.resolve("factory.yaml"), """
                owner: team-a
                timeouts:
                  setup: 20m
                store:
                  passwordEnv: PG_PASSWORD_VAR
                providers:
                  local:
                    env: {CI: "true", GH_TOKEN: %s}
                """.formatted(TOKEN));
        cli = mode.cli(state).in(temp).env("FACTORY_TIMEOUTS_COMMAND", "5m").env("PG_PASSWORD_VAR", "pg-secret-value")
                .env("GH_TOKEN", TOKEN);
    }

    @AfterEach
    void stopDaemons() throws Exception {
        new Daemons(state).stop();
    }

    @Test
    void printsEveryValueWithItsSourceAndMasksSecrets() {
        CliProcess.Result result = cli.run("--config", config.toString(), "--provider", "local", "config");

        assertThat(result.exitCode()).as(result.toString()).isZero();
        String out = result.stdout();
        assertThat(out).containsPattern("(?m)^provider +=  ?local  \\(flag --provider\\)$");
        assertThat(out).containsPattern("(?m)^owner +=  ?team-a  \\(file " + java.util.regex.Pattern.quote(config.toString()) + "\\)$");
        assertThat(out).containsPattern("(?m)^timeouts\\.command +=  ?5m  \\(environment FACTORY_TIMEOUTS_COMMAND\\)$");
        assertThat(out).containsPattern("(?m)^store\\.leaseTtl +=  ?10s  \\(default\\)$");
        assertThat(out).containsPattern("(?m)^store\\.passwordEnv +=  ?PG_PASSWORD_VAR  \\(file ");
        assertThat(out).containsPattern("(?m)^providers\\.local\\.env\\.GH_TOKEN +=  ?\\*\\*\\*\\*  \\(file ");
        assertThat(out).containsPattern("(?m)^providers\\.local\\.env\\.CI +=  ?true  \\(file ");
        assertThat(result.stdout() + result.stderr()).doesNotContain(TOKEN).doesNotContain("pg-secret-value");
        assertThat(state).as("config opens and creates nothing").doesNotExist();
    }

    @Test
    void theJsonDocumentListsKeyValueAndSource() {
        CliProcess.Result result = cli.env("FACTORY_OWNER", "team-b").run("--json", "--config", config.toString(), "config");

        assertThat(result.exitCode()).as(result.toString()).isZero();
        assertThat(result.stdout().replaceAll("\\s+", " "))
                .contains("\"key\" : \"owner\", \"value\" : \"team-b\", \"source\" : \"environment FACTORY_OWNER\"")
                .contains("\"key\" : \"stateDir\", \"value\" : \"" + state + "\", \"source\" : \"flag --state-dir\"")
                .contains("\"key\" : \"providers.local.env.GH_TOKEN\", \"value\" : \"****\"")
                .doesNotContain(TOKEN);
    }

    @Test
    void everyConfigErrorIsReportedAtOnceAsBadInput() throws Exception {
        Files.writeString(config, """
                colour: red
                timeouts:
                  setup: soon
                providers:
                  local:
                    bogus: 1
                    root: relative/sessions
                    inheritEnvironment: maybe
                """);
        CliProcess.Result result = cli.env("FACTORY_STORE_POOL_SIZE", "many").run("--json", "--config", config.toString(), "config");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(2);
        assertThat(result.stderr()).contains("The configuration has 6 errors:").contains("'colour'").contains("timeouts.setup")
                .contains("providers.local.bogus").contains("FACTORY_STORE_POOL_SIZE").contains(config.toString())
                .contains("Invalid value 'relative/sessions' for configuration key 'providers.local.root' in " + config.toAbsolutePath()
                        + "; it must be an absolute path or start with ~/.")
                .contains("Invalid value 'maybe' for configuration key 'providers.local.inheritEnvironment' in " + config.toAbsolutePath()
                        + "; expected Boolean.");
        assertThat(result.stdout()).contains("\"code\" : \"INVALID_CONFIG\"").contains("\"exitCode\" : 2");
        assertThat(state).doesNotExist();
    }
}
