package io.sandboxfactory.bench.git;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.bench.BenchWorkspace;
import io.sandboxfactory.bench.report.Group;
import io.sandboxfactory.bench.stats.Contender;
import io.sandboxfactory.bench.stats.Interleaved;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.config.RepositoryDefaults;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.testing.GitHttpServer;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code git fetch} of the fixture repository from an authenticated remote (git http-backend behind
 * HTTP Basic auth on loopback), nothing new upstream: host git straight at the remote (the baseline),
 * a local session's git through the factory's Git gateway (the default: no network, no token in the
 * sandbox), and a local session's git straight at the remote with the token in its environment
 * ({@code repository.exposeToken}, the host's network).
 */
public final class GatewayGroups {

    private final BenchWorkspace workspace;

    public GatewayGroups(BenchWorkspace workspace) {
        this.workspace = workspace;
    }

    public Group measure(Interleaved rounds) throws Exception {
        Path bare = workspace.bareRepository();
        String token = "bench-" + UUID.randomUUID();
        try (GitHttpServer server = new GitHttpServer(bare.getParent(), token);
             SandboxFactory gateway = factory("gateway", token, false);
             SandboxFactory exposed = factory("exposed", token, true)) {
            String url = server.url(bare.getFileName().toString());
            Path clone = workspace.directory("gateway-host-clone");
            Map<String, String> auth = Map.of("GIT_CONFIG_COUNT", "1", "GIT_CONFIG_KEY_0", "http.extraHeader", "GIT_CONFIG_VALUE_0",
                    "Authorization: Basic " + Base64.getEncoder().encodeToString(("x-access-token:" + token).getBytes(StandardCharsets.UTF_8)));
            workspace.processes().quiet(clone, auth, List.of("git", "clone", "-q", url, "c"));
            Path checkout = clone.resolve("c");
            SessionHandle served = gateway.openSession(spec("fetch-gateway", url));
            SessionHandle direct = exposed.openSession(spec("fetch-exposed", url));
            List<Contender> out = new ArrayList<>();
            out.add(Contender.of("host git fetch, token in its environment", () -> workspace.processes().quiet(checkout, auth,
                    List.of("git", "fetch", "-q", "origin"))));
            out.add(Contender.of("session git fetch through the Git gateway", () -> fetch(served)));
            out.add(Contender.of("session git fetch, token exposed (host network)", () -> fetch(direct)));
            return new Group("git fetch from an authenticated remote", out.get(0).name(), rounds.run(out));
        }
    }

    private SandboxFactory factory(String name, String token, boolean exposeToken) throws Exception {
        Path dir = workspace.directory(name);
        Map<String, Object> local = exposeToken ? Map.of("root", dir.resolve("sessions").toString(), "network", "host")
                : Map.of("root", dir.resolve("sessions").toString());
        FactoryConfig config = FactoryConfig.builder().provider("local").providerSection("local", local)
                .repository(new RepositoryDefaults(null, Optional.empty(), List.of(), List.of(), List.of(), List.of(), List.of(), exposeToken,
                        Optional.empty())).build();
        return SandboxFactory.builder().config(config).stateDirectory(dir.resolve("state")).environment(workspace.processes().environment())
                .repositoryToken(() -> token).build();
    }

    private static SessionSpec spec(String id, String url) {
        return SessionSpec.builder(id).repository(url).branch("b").baseBranch("main").build();
    }

    private static void fetch(SessionHandle session) {
        CommandResult result = session.executeCommand("git fetch -q origin", List.of(),
                CommandOptions.builder().cwd(session.checkout().orElseThrow()).build());
        if (result.exitCode() != 0) {
            throw new IllegalStateException("git fetch in session " + session.sessionId() + " failed: " + result.stderr());
        }
    }
}
