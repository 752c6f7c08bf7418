package io.sandboxfactory.core.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.ExecCreateCmdResponse;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Frame;
import com.sun.net.httpserver.HttpServer;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.config.EgressConfig;
import io.sandboxfactory.core.egress.Upstreams;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.testing.RequiresDocker;
import io.sandboxfactory.store.api.JournalEntry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/**
 * An egress allow-list on a real Docker engine. A container without network reaches allowed hosts
 * through its listener (perl, in the test image) and the session's channel only: plain HTTP with
 * busybox wget, HTTPS through {@code CONNECT} with git; a denied host gets 403 and an egress event
 * in the journal; a live change applies to the running container; with the factory's proxy gone
 * nothing gets out; under gVisor the channel is bridged through the container's streams. It fails closed: a container on a network of its own (bridge) is refused at open
 * naming the setting; an image without a listener tool (neither perl nor socat) fails its open with
 * one sentence saying so; neither leaves a session behind.
 */
@ExtendWith(RequiresDocker.class)
class DockerEgressIT {

    /** A commit id in the refs the HTTPS upstream advertises. */
    private static final String REF = "0123456789abcdef0123456789abcdef01234567";

    @TempDir
    Path tmp;

    private DockerSessionRig rig;

    @AfterEach
    void close() throws Exception {
        if (rig != null) {
            rig.close();
        }
    }

    private static EgressConfig allowlist() {
        return new EgressConfig("allowlist", List.of("registry.example.test"), Map.of(), Optional.empty());
    }

    /** Names the proxy resolves to the test's upstream servers (loopback of the host, not the container's). */
    private static EgressConfig upstreams() {
        return new EgressConfig("allowlist", List.of("allowed.test"),
                Map.of("allowed.test", "127.0.0.2", "denied.test", "127.0.0.2", "api.example.test", "127.0.0.2"), Optional.empty());
    }

    @Test
    void aContainerWithoutNetworkReachesAllowedHostsThroughItsChannelOnlyAndALiveChangeAppliesAtOnce() throws Exception {
        HttpServer http = Upstreams.http("hello from");
        Upstreams.Tls https = Upstreams.https(Files.createDirectories(tmp.resolve("tls")));
        // Git's dumb protocol reads this file first: a ref in ls-remote's output came back through the tunnel.
        https.server().createContext("/app.git/info/refs", exchange -> {
            byte[] refs = (REF + "\trefs/heads/main\n").getBytes(StandardCharsets.US_ASCII);
            exchange.sendResponseHeaders(200, refs.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(refs);
            }
        });
        int port = http.getAddress().getPort();
        String lsRemote = "git -c http.sslVerify=false ls-remote https://api.example.test:" + https.port() + "/app.git";
        try {
            rig = new DockerSessionRig(tmp);
            SandboxFactory factory = rig.egressFactory("none", upstreams());
            String id = rig.sessionId("egress");
            SessionHandle handle = factory.openSession(rig.spec(id).egressAllow(List.of("*.example.test")).build());
            assertThat(handle.sandbox().getEnv().get("HTTP_PROXY")).matches("http://[A-Za-z0-9_-]+:@127\\.0\\.0\\.1:3128");
            String container = handle.sandbox().sandboxId().orElseThrow();
            String started = rig.inspect(container).orElseThrow().getState().getStartedAt();

            // Plain HTTP with busybox wget; HTTPS with git (libcurl: CONNECT, the ClientHello's SNI checked, the bytes spliced).
            assertThat(run(handle, "wget -q -O - http://allowed.test:" + port + "/")).isEqualTo("0 hello from allowed.test:" + port);
            assertThat(run(handle, lsRemote)).isEqualTo("0 " + REF + "\trefs/heads/main");
            assertThat(run(handle, "wget -O - http://denied.test:" + port + "/")).startsWith("1 ")
                    .endsWith("wget: server returned error: HTTP/1.1 403 Forbidden");
            // No route but the proxy: without it the upstream's address is the container's own loopback, where nothing listens.
            assertThat(run(handle, "wget -Y off -q -O - http://127.0.0.2:" + port + "/")).startsWith("1 ").doesNotContain("hello");
            // busybox wget sends an https:// URL to a proxy as a plain request, not as CONNECT: the proxy refuses it.
            assertThat(run(handle, "wget -q -O - --no-check-certificate https://api.example.test:" + https.port() + "/"))
                    .isEqualTo("1 wget: server returned error: HTTP/1.1 400 Bad Request");
            assertThat(factory.sessionStore().journal(id, 20)).filteredOn(e -> e.origin().equals("egress"))
                    .extracting(JournalEntry::command, JournalEntry::exitCode).containsExactly(
                            tuple("allowed GET allowed.test:" + port + " (allow allowed.test)", 0),
                            tuple("allowed CONNECT api.example.test:" + https.port() + " (allow *.example.test)", 0),
                            tuple("denied GET denied.test:" + port + " (no allow rule matches)", 1));

            // A live change: the running container's next connections follow it.
            factory.changeEgress(id, List.of("denied.test:" + port), List.of("api.example.test"));
            assertThat(run(handle, "wget -q -O - http://denied.test:" + port + "/")).isEqualTo("0 hello from denied.test:" + port);
            assertThat(run(handle, lsRemote)).startsWith("128 ").endsWith("CONNECT tunnel failed, response 403");
            assertThat(rig.inspect(container).orElseThrow().getState().getStartedAt()).as("not restarted").isEqualTo(started);
        } finally {
            http.stop(0);
            https.server().stop(0);
        }
    }

    /**
     * gVisor passes no host FIFO: the session's egress channel is bridged through the container's
     * streams and serves the same. (git is the client here: busybox wget fails on its own under
     * gVisor's ptrace platform, with EAGAIN or a crash, whatever the proxy.)
     */
    @Test
    void underGvisorTheChannelIsBridgedThroughTheContainersStreams() throws Exception {
        HttpServer http = Upstreams.http("hello from");
        http.createContext("/app.git/info/refs", exchange -> {
            byte[] refs = (REF + "\trefs/heads/main\n").getBytes(StandardCharsets.US_ASCII);
            exchange.sendResponseHeaders(200, refs.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(refs);
            }
        });
        int port = http.getAddress().getPort();
        try {
            rig = new DockerSessionRig(tmp);
            SandboxFactory factory = rig.egressFactory("none", Map.of("runtime", "runsc"), upstreams());
            SessionHandle handle = factory.openSession(rig.spec(rig.sessionId("gvisor-egress")).build());
            assertThat(run(handle, "ls /tmp/.sandbox-factory-channels")).as("the channel lives in the container").startsWith("0 egress-");
            assertThat(run(handle, "git ls-remote http://allowed.test:" + port + "/app.git")).isEqualTo("0 " + REF + "\trefs/heads/main");
            assertThat(run(handle, "git ls-remote http://denied.test:" + port + "/app.git")).startsWith("128 ").contains("403");
        } finally {
            http.stop(0);
        }
    }

    @Test
    void withTheProxyDownNothingGetsOut() throws Exception {
        HttpServer http = Upstreams.http("hello from");
        AtomicInteger reached = new AtomicInteger();
        http.createContext("/counted", exchange -> {
            reached.incrementAndGet();
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        int port = http.getAddress().getPort();
        String counted = "wget -q -O - http://allowed.test:" + port + "/counted";
        try {
            rig = new DockerSessionRig(tmp);
            SandboxFactory factory = rig.egressFactory("none", upstreams());
            SessionHandle handle = factory.openSession(rig.spec(rig.sessionId("proxy-down")).build());
            assertThat(run(handle, counted)).startsWith("0 ");
            assertThat(reached).hasValue(1);
            String container = handle.sandbox().sandboxId().orElseThrow();
            List<String> env = handle.sandbox().getEnv().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList();

            // The proxy, the session's channel and its listener go with the factory (the listener killed before
            // its close returns); the container stays, without a route.
            factory.close();
            assertThat(execIn(rig.engine(), container, env, "ps -o comm | grep -x perl")).isEqualTo("1");
            assertThat(execIn(rig.engine(), container, env, counted)).startsWith("1 ");
            assertThat(execIn(rig.engine(), container, env, "wget -Y off -q -O - http://127.0.0.2:" + port + "/counted")).startsWith("1 ");
            assertThat(reached).hasValue(1);
            InspectContainerResponse inspected = rig.inspect(container).orElseThrow();
            assertThat(inspected.getState().getRunning()).isTrue();
            assertThat(inspected.getHostConfig().getNetworkMode()).isEqualTo("none");
        } finally {
            http.stop(0);
        }
    }

    /** {@code script} in the session's sandbox (its proxy variables set): {@code <exit> <stdout>\n<stderr>}, stripped. */
    private static String run(SessionHandle handle, String script) {
        CommandResult result = handle.executeCommand(script, List.of(), CommandOptions.builder().timeout(Duration.ofMinutes(1)).build());
        return result.exitCode() + " " + (result.stdout() + "\n" + result.stderr()).strip();
    }

    /** {@code script} in {@code container} through the engine, past the factory: {@code <exit> <output>}, stripped. */
    private static String execIn(DockerClient engine, String container, List<String> env, String script) throws InterruptedException {
        ExecCreateCmdResponse exec = engine.execCreateCmd(container).withCmd("sh", "-c", script).withEnv(env)
                .withAttachStdout(true).withAttachStderr(true).exec();
        StringBuilder output = new StringBuilder();
        engine.execStartCmd(exec.getId()).exec(new ResultCallback.Adapter<Frame>() {
            @Override
            public void onNext(Frame frame) {
                synchronized (output) {
                    output.append(new String(frame.getPayload(), StandardCharsets.UTF_8));
                }
            }
        }).awaitCompletion(1, TimeUnit.MINUTES);
        synchronized (output) {
            return (engine.inspectExecCmd(exec.getId()).exec().getExitCodeLong() + " " + output).strip();
        }
    }

    @Test
    void aContainerWithANetworkOfItsOwnIsRefusedAtOpen() throws Exception {
        rig = new DockerSessionRig(tmp);
        SandboxFactory factory = rig.egressFactory("bridge", allowlist());
        String id = rig.sessionId("bridged");
        assertThatThrownBy(() -> factory.openSession(rig.spec(id).build()))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("egress.mode allowlist needs sandboxes without a network route of their own")
                .hasMessageContaining("docker: a networkMode other than none");
        assertThat(factory.sessionStore().find(id)).isEmpty();
    }

    @Test
    void aContainerWithoutAListenerToolFailsItsOpenSayingSo() throws Exception {
        rig = new DockerSessionRig(tmp);
        SandboxFactory factory = rig.egressFactory("none", Map.of("image", rig.imageWithout("/usr/bin/perl")), allowlist());
        String id = rig.sessionId("no-listener");
        assertThatThrownBy(() -> factory.openSession(rig.spec(id).build()))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("has neither perl nor socat to listen on 127.0.0.1:3128 for the factory's channel");
        assertThat(factory.sessionStore().find(id)).isEmpty();
    }
}
