package io.sandboxfactory.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Egress by allow-list as a user drives it: {@code egress.mode allowlist} from the environment,
 * {@code open --egress-allow}, {@code status} and {@code egress} showing and changing the rules, kept
 * across processes and daemon restarts; the sandbox's proxy variables; a denied request of curl in the
 * sandbox (through its listener and channel) in {@code factory log}; bad patterns and a local network of the host's refused,
 * creating nothing. The local provider isolates with bubblewrap (network none). Daemon off and on.
 */
@ParameterizedClass(name = "daemon {0}")
@EnumSource(DaemonMode.class)
class EgressCliIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Parameter
    DaemonMode mode;

    @TempDir
    Path temp;

    Path state;
    Path bare;
    CliProcess cli;

    @BeforeEach
    void setUp() throws Exception {
        state = temp.resolve("state");
        bare = GitRepos.bareWithMain(temp, "app");
        cli = mode.cli(state).in(temp).env("FACTORY_EGRESS_MODE", "allowlist").env("FACTORY_EGRESS_ALLOW", "allowed.test");
    }

    @AfterEach
    void stopDaemons() throws Exception {
        new Daemons(state).stop();
    }

    @Test
    void aSessionsRulesAreShownChangedLiveAndKept() throws Exception {
        CliProcess.Result open = cli.run("open", "e1", "--repo", bare.toString(), "--branch", "work", "--egress-allow", "extra.test:8443");
        assertThat(open.exitCode()).as(open.toString()).isZero();

        JsonNode status = JSON.readTree(cli.run("--json", "status", "e1").stdout()).get("egress");
        assertThat(status.get("mode").asText()).isEqualTo("allowlist");
        assertThat(texts(status.get("allow"))).containsExactly("allowed.test", "extra.test:8443");
        assertThat(cli.run("status", "e1").stdout()).containsPattern("(?m)^egress: +allowlist; allow allowed.test, extra.test:8443; deny -$");

        CliProcess.Result change = cli.run("egress", "e1", "--allow", "*.later.test", "--deny", "extra.test:8443");
        assertThat(change.exitCode()).as(change.toString()).isZero();
        assertThat(change.stdout().strip()).isEqualTo("e1 allowlist; allow allowed.test, *.later.test; deny extra.test:8443");
        new Daemons(state).stop();
        JsonNode shown = JSON.readTree(cli.run("--json", "egress", "e1").stdout());
        assertThat(shown.get("session").asText()).isEqualTo("e1");
        assertThat(texts(shown.get("allow"))).containsExactly("allowed.test", "*.later.test");
        assertThat(texts(shown.get("deny"))).containsExactly("extra.test:8443");

        CliProcess.Result env = cli.run("exec", "e1", "--", "sh", "-c", "echo \"$HTTPS_PROXY|$http_proxy|$NO_PROXY\"");
        assertThat(env.exitCode()).as(env.toString()).isZero();
        String[] parts = env.stdout().strip().split("\\|");
        // The sandbox has no network: its listener on 127.0.0.1:3128 carries each connection through the session's channel.
        assertThat(parts[0]).matches("http://[A-Za-z0-9_-]{20,}:@127\\.0\\.0\\.1:3128").isEqualTo(parts[1]);
        assertThat(parts[2]).isEqualTo("localhost,127.0.0.1,::1");

        CliProcess.Result denied = cli.run("exec", "e1", "--", "curl", "-sS", "-w", "\\n%{http_code}", "http://denied.test:9/");
        assertThat(denied.stdout()).as(denied.toString()).contains("Egress to denied.test:9 is denied for session 'e1': no allow rule matches.")
                .endsWith("403");
        assertThat(cli.run("log", "e1").stdout()).containsPattern("(?m) egress +exit 1 .*denied GET denied\\.test:9 \\(no allow rule matches\\)$");
    }

    @Test
    void badPatternsAndAHostNetworkAreRefusedAndCreateNothing() {
        CliProcess.Result bad = cli.run("open", "e2", "--repo", bare.toString(), "--branch", "work", "--egress-allow", "https://api.example.com");
        assertThat(bad.exitCode()).as(bad.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(bad.stderr()).contains("'https://api.example.com' is invalid;");

        CliProcess.Result mode = cli.env("FACTORY_EGRESS_MODE", "closed").run("open", "e2", "--repo", bare.toString(), "--branch", "work");
        assertThat(mode.exitCode()).as(mode.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(mode.stderr()).contains("'closed'").contains("egress.mode");

        CliProcess.Result host = cli.env("FACTORY_EGRESS_MODE", "allowlist").env("FACTORY_PROVIDERS_LOCAL_NETWORK", "host")
                .run("open", "e2", "--repo", bare.toString(), "--branch", "work");
        assertThat(host.exitCode()).as(host.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(host.stderr()).contains("egress.mode allowlist needs sandboxes without a network route of their own")
                .contains("local: isolation none or network host");
        assertThat(cli.env("FACTORY_PROVIDERS_LOCAL_NETWORK", "none").run("list").stdout()).doesNotContain("e2");

        CliProcess.Result open = cli.run("open", "e3", "--repo", bare.toString(), "--branch", "work");
        assertThat(open.exitCode()).as(open.toString()).isZero();
        CliProcess.Result badChange = cli.run("egress", "e3", "--allow", "bad host");
        assertThat(badChange.exitCode()).as(badChange.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(badChange.stderr()).contains("--allow 'bad host' is invalid;");
        assertThat(cli.run("egress", "e4").exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
    }

    private static List<String> texts(JsonNode array) {
        return java.util.stream.StreamSupport.stream(array.spliterator(), false).map(JsonNode::asText).toList();
    }
}
