package io.sandboxfactory.core.internal.gateway;

import io.sandboxfactory.core.testing.Git;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** How the gateway tells an unchanged upstream from a changed one, on real git output. */
class GatewayMirrorsTest {

    @TempDir
    Path tmp;

    @Test
    void lsRemoteAndForEachRefOfTheSameRefsCompareEqualAndAChangeDiffers() throws Exception {
        Path bare = Git.bareRepository(tmp.resolve("up.git"), "dev");
        Git.run(bare, "tag", "-a", "v1", "-m", "one", "refs/heads/main");
        String advertised = Git.run(tmp, "ls-remote", "--symref", bare.toString());
        String held = Git.run(bare, "for-each-ref", "--format=%(objectname) %(refname)", "refs/heads", "refs/tags");
        assertThat(advertised).contains("^{}");
        assertThat(GatewayMirrors.refs(advertised)).hasSize(3).isEqualTo(GatewayMirrors.refs(held));
        assertThat(GatewayMirrors.headRef(advertised)).contains("refs/heads/main");

        Git.commitToMain(bare, "next.txt", "next\n");
        assertThat(GatewayMirrors.refs(Git.run(tmp, "ls-remote", bare.toString()))).isNotEqualTo(GatewayMirrors.refs(held));
    }
}
