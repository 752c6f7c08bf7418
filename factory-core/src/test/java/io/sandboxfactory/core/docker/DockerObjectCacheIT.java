package io.sandboxfactory.core.docker;

import com.github.dockerjava.api.model.Bind;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.testing.ConcurrentCachedClones;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.core.testing.GitHttpServer;
import io.sandboxfactory.core.testing.RequiresDocker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The host git object cache with the docker provider on a real engine: the mirror directory is
 * mounted read-only into new containers, the clone inside borrows from it with {@code
 * --reference-if-able … --dissociate} and does not depend on it afterwards, concurrent opens (two
 * factories, so two processes' worth of locks) cost the mirror one fetch at a loopback http git
 * server that counts fetches, and the token is in no config. Containers use the host's network to
 * reach that server on loopback.
 */
@ExtendWith(RequiresDocker.class)
class DockerObjectCacheIT {

    private static final String TOKEN = "docker-cache-token";

    @TempDir
    Path tmp;
    DockerSessionRig rig;
    GitHttpServer server;
    String url;

    @BeforeEach
    void rig() throws IOException {
        rig = new DockerSessionRig(tmp);
        server = new GitHttpServer(rig.remote().getParent(), TOKEN);
        url = server.url(rig.remote().getFileName().toString());
    }

    @AfterEach
    void cleanUp() {
        try {
            rig.close();
        } finally {
            server.close();
        }
    }

    private SessionSpec spec(String id) {
        return SessionSpec.builder(id).repository(url).branch(DockerSessionRig.BRANCH).build();
    }

    private Path cacheDirectory() {
        return rig.state().resolve("git-cache");
    }

    private List<Path> mirrors() throws IOException {
        try (Stream<Path> children = Files.list(cacheDirectory())) {
            return children.filter(p -> p.getFileName().toString().endsWith(".git")).toList();
        }
    }

    private static CommandResult inCheckout(SessionHandle session, String command) {
        return session.executeCommand("cd '" + session.checkout().orElseThrow() + "' && " + command);
    }

    @Test
    void aContainerClonesThroughTheReadOnlyMirrorAndKeepsNoLinkToIt() throws Exception {
        ConcurrentCachedClones listener = new ConcurrentCachedClones();
        SandboxFactory factory = rig.cachedFactory(listener, TOKEN);
        String id = rig.sessionId("cached");
        SessionHandle session = factory.openSession(spec(id));

        Path mirror = mirrors().get(0);
        assertThat(Git.run(mirror, "rev-parse", "main")).isEqualTo(Git.revParse(rig.remote(), "main"));
        Bind[] binds = rig.inspect(rig.containersOfSession(id).get(0).getId()).orElseThrow().getHostConfig().getBinds();
        assertThat(Arrays.stream(binds).map(Bind::toString)).contains(cacheDirectory() + ":" + cacheDirectory() + ":ro");
        assertThat(inCheckout(session, "git rev-parse HEAD").stdout().strip()).isEqualTo(Git.revParse(rig.remote(), "main"));
        assertThat(inCheckout(session, "test -e .git/objects/info/alternates").exitCode()).as("dissociated").isNotZero();
        assertThat(session.executeCommand("touch '" + mirror + "/written-inside'").exitCode()).as("mounted read-only").isNotZero();
        assertThat(inCheckout(session, "cat .git/config").stdout()).doesNotContain(TOKEN);
        assertThat(Files.readString(mirror.resolve("config"))).doesNotContain(TOKEN);

        try (Stream<Path> files = Files.walk(mirror)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        CommandResult log = inCheckout(session, "git fsck --no-progress 2>&1 >/dev/null && git log --oneline -1");
        assertThat(log.exitCode()).as(log.stderr()).isZero();
        assertThat(log.stdout()).contains("initial");
    }

    @Test
    void concurrentOpensInTwoFactoriesCostTheMirrorOneFetch() throws Exception {
        ConcurrentCachedClones listener = new ConcurrentCachedClones();
        SandboxFactory one = rig.cachedFactory(listener, TOKEN);
        SandboxFactory two = rig.cachedFactory(listener, TOKEN);
        int before = server.uploadPackAdvertisements();
        one.openSession(spec(rig.sessionId("first")));
        // The first open made the mirror (one clone --mirror); the rest is what an open's own clone costs.
        int perOpen = server.uploadPackAdvertisements() - before - 1;
        assertThat(perOpen).isPositive();

        List<String> ids = List.of(rig.sessionId("c0"), rig.sessionId("c1"), rig.sessionId("c2"));
        Function<String, SessionSpec> spec = this::spec;
        before = server.uploadPackAdvertisements();
        List<SessionHandle> handles = listener.open(server, List.of(one, two), ids, spec);
        assertThat(server.uploadPackAdvertisements() - before).as("each open's own clone and one mirror fetch for all")
                .isEqualTo(ids.size() * perOpen + 1);
        for (SessionHandle handle : handles) {
            assertThat(inCheckout(handle, "git rev-parse HEAD").stdout().strip()).isEqualTo(Git.revParse(rig.remote(), "main"));
        }
        assertThat(mirrors()).hasSize(1);
    }
}
