package io.sandboxfactory.cli;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code factory config} as users run it: the real jar with a real config file, environment and
 * flags; with the factory daemon off and on.
 */
@ParameterizedClass(name = "daemon {0}")
@EnumSource(DaemonMode.class)
class ConfigCliIT {

    private static final String TOKEN = "ghp_ConfigCliSecret42";
    /** A token under a key not named like a secret: masked by its shape. */
    private static final String SHAPED = "ghp_" + "ConfigCliShaped0123456789abcdefghij";

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
                    env: {CI: "true", GH_TOKEN: %s, NOTE: %s}
                """.formatted(TOKEN, SHAPED));
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
                .contains("\"key\" : \"providers.local.env.NOTE\", \"value\" : \"****\"")
                .doesNotContain(TOKEN).doesNotContain(SHAPED);
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

    @Test
    void aYamlSyntaxErrorNamesFileLineColumnAndTheOffendingTextInOneSentence() throws Exception {
        Files.writeString(config, "owner: team-a\nprovider: [a, b\n");

        CliProcess.Result result = cli.run("--config", config.toString(), "list");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(2);
        assertThat(result.stderr().strip()).startsWith("factory: Config file " + config.toAbsolutePath() + " is not valid YAML at line 2, column ")
                .contains("(`provider: [a, b`)").doesNotContain("\n").endsWith(".");
        assertThat(state).as("nothing created").doesNotExist();
    }

    @Test
    void aMistypedFactoryVariableIsBadInputNamingTheVariableItMeant() {
        CliProcess.Result config = cli.env("FACTORY_PROVIDR", "docker").run("--config", this.config.toString(), "config");

        assertThat(config.exitCode()).as(config.toString()).isEqualTo(2);
        assertThat(config.stderr()).contains("Unknown configuration key from environment variable FACTORY_PROVIDR; did you mean FACTORY_PROVIDER?");
        assertThat(config.stdout()).isEmpty();
        CliProcess.Result list = cli.run("list");
        assertThat(list.exitCode()).as("every command reads the config: " + list).isEqualTo(2);
        assertThat(state).as("nothing created").doesNotExist();
    }

    @Test
    void variablesTheFactoryReadsOrTheConfigNamesAreNoTypos() throws Exception {
        Files.writeString(config, """
                store:
                  passwordEnv: FACTORY_PG_PASSWORD
                providers:
                  local:
                    passEnv: [FACTORY_TOKEN_FOR_SESSIONS]
                """);
        CliProcess.Result result = cli.env("FACTORY_CDS", "off").env("FACTORY_PLUGINS", temp.resolve("plugins").toString())
                .env("FACTORY_DAEMON_IDLE", "1m").env("FACTORY_PG_PASSWORD", "pw").env("FACTORY_TOKEN_FOR_SESSIONS", "t")
                .run("--config", config.toString(), "config");

        assertThat(result.exitCode()).as(result.toString()).isZero();
    }

    /** A value for each key of {@code factory config}, as its variable takes it, and as {@code --json config} prints it back. */
    private static final Map<String, List<String>> SAMPLES = Map.ofEntries(
            Map.entry("provider", List.of("local", "\"local\"")), Map.entry("owner", List.of("team-walk", "\"team-walk\"")),
            Map.entry("repository.cloneUrlTemplate", List.of("https://git.example.com/{owner}/{name}.git",
                    "\"https://git.example.com/{owner}/{name}.git\"")),
            Map.entry("repository.defaultBaseBranch", List.of("develop", "\"develop\"")),
            Map.entry("repository.setup", List.of("[echo one, echo two]", "[\"echo one\",\"echo two\"]")),
            Map.entry("repository.teardown", List.of("echo bye", "[\"echo bye\"]")),
            Map.entry("repository.allowedFileRoots", List.of("/srv/git", "[\"/srv/git\"]")),
            Map.entry("repository.templateInputs", List.of("package-lock.json", "[\"package-lock.json\"]")),
            Map.entry("repository.setupSecrets", List.of("[NPM_TOKEN, PIP_TOKEN]", "[\"NPM_TOKEN\",\"PIP_TOKEN\"]")),
            Map.entry("repository.exposeToken", List.of("true", "true")),
            Map.entry("repository.pushNamespace", List.of("agents", "\"agents\"")),
            Map.entry("egress.mode", List.of("none", "\"none\"")),
            Map.entry("egress.allow", List.of("[a.example.test, \"*.b.example.test\"]", "[\"a.example.test\",\"*.b.example.test\"]")),
            Map.entry("egress.proxyAddress", List.of("10.0.0.5:3128", "\"10.0.0.5:3128\"")),
            Map.entry("timeouts.setup", List.of("7m", "\"7m\"")), Map.entry("timeouts.command", List.of("8m", "\"8m\"")),
            Map.entry("timeouts.probe", List.of("9m", "\"9m\"")), Map.entry("timeouts.network", List.of("1m", "\"1m\"")),
            Map.entry("timeouts.checkout", List.of("2m", "\"2m\"")), Map.entry("timeouts.teardown", List.of("3m", "\"3m\"")),
            Map.entry("lifecycle.stopAfterIdle", List.of("4h", "\"4h\"")), Map.entry("lifecycle.deleteAfterIdle", List.of("7d", "\"7d\"")),
            Map.entry("store.type", List.of("postgres", "\"postgres\"")),
            Map.entry("store.url", List.of("jdbc:postgresql://127.0.0.1:1/walk", "\"jdbc:postgresql://127.0.0.1:1/walk\"")),
            Map.entry("store.user", List.of("walker", "\"walker\"")), Map.entry("store.passwordEnv", List.of("WALK_PASSWORD", "\"WALK_PASSWORD\"")),
            Map.entry("store.schema", List.of("walk", "\"walk\"")), Map.entry("store.poolSize", List.of("3", "3")),
            Map.entry("store.leaseTtl", List.of("20s", "\"20s\"")), Map.entry("store.connectTimeout", List.of("2s", "\"2s\"")),
            Map.entry("templates.autoBuild", List.of("true", "true")), Map.entry("cache.enabled", List.of("true", "true")),
            Map.entry("cache.maxIdle", List.of("12h", "\"12h\"")), Map.entry("journal.maxEntries", List.of("50", "50")),
            Map.entry("git.user.name", List.of("Walk Bot", "\"Walk Bot\"")), Map.entry("git.user.email", List.of("walk@example.org", "\"walk@example.org\"")),
            Map.entry("providers.local.root", List.of("/tmp/walk-root", "\"/tmp/walk-root\"")),
            Map.entry("providers.local.passEnv", List.of("[HOME]", "[\"HOME\"]")),
            Map.entry("providers.local.inheritEnvironment", List.of("true", "true")),
            Map.entry("providers.local.env", List.of("{MODE: ci}", "{\"MODE\":\"ci\"}")),
            Map.entry("providers.local.isolation", List.of("none", "\"none\"")),
            Map.entry("providers.local.network", List.of("host", "\"host\"")),
            Map.entry("providers.local.volumes", List.of("[/srv/data]", "[\"/srv/data\"]")));

    @Test
    void everyKeyOfTheConfigCanBeSetThroughItsVariable() throws Exception {
        Path empty = Files.writeString(temp.resolve("empty.yaml"), "");
        ObjectMapper json = new ObjectMapper();
        List<String> keys = new ArrayList<>();
        json.readTree(cli.run("--json", "--config", empty.toString(), "config").stdout()).get("values")
                .forEach(value -> keys.add(value.get("key").asText()));
        // The harness gives --state-dir, which beats FACTORY_STATE_DIR (StateDirectoriesTest reads the variable).
        keys.remove("stateDir");
        // A map of names to addresses has no variable (configuration.md says so): it is set in a file.
        keys.remove("egress.resolve");
        assertThat(keys).as("each key needs a sample value here").allSatisfy(key -> assertThat(SAMPLES).containsKey(key));

        CliProcess walk = mode.cli(state).in(temp);
        keys.forEach(key -> walk.env(variable(key), SAMPLES.get(key).get(0)));
        CliProcess.Result result = walk.run("--json", "--config", empty.toString(), "config");

        assertThat(result.exitCode()).as(result.toString()).isZero();
        Map<String, JsonNode> shown = new LinkedHashMap<>();
        json.readTree(result.stdout()).get("values").forEach(value -> shown.put(value.get("key").asText(), value));
        for (String key : keys) {
            // A map (providers.local.env) prints one line per entry, each from the map's variable.
            ObjectNode entries = json.createObjectNode();
            shown.forEach((k, v) -> {
                if (k.startsWith(key + ".")) {
                    entries.set(k.substring(key.length() + 1), v.get("value"));
                }
            });
            JsonNode value = shown.containsKey(key) ? shown.get(key).get("value") : entries;
            String source = shown.containsKey(key) ? shown.get(key).get("source").asText()
                    : shown.get(key + "." + entries.fieldNames().next()).get("source").asText();
            assertThat(source).as(key).isEqualTo("environment " + variable(key));
            assertThat(value.toString()).as(key).isEqualTo(SAMPLES.get(key).get(1));
        }
    }

    /** {@code timeouts.network} → {@code FACTORY_TIMEOUTS_NETWORK}, {@code providers.local.passEnv} → {@code FACTORY_PROVIDERS_LOCAL_PASS_ENV}. */
    private static String variable(String key) {
        return "FACTORY_" + key.replaceAll("([a-z0-9])([A-Z])", "$1_$2").replace('.', '_').toUpperCase(java.util.Locale.ROOT);
    }
}
