package io.sandboxfactory.core.session;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.testing.SessionHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A clone that fails because an isolated local session has no network names the setting that
 * gives it one. Nothing leaves the machine: the session's network namespace has only its loopback.
 */
class LocalNetworkHintTest {

    @TempDir
    Path tmp;

    @Test
    void aCloneOfARemoteFromASessionWithoutNetworkEndsWithTheHint() {
        try (SessionHarness factory = new SessionHarness(tmp.resolve("state"))) {
            assumeTrue(factory.local.isolation().equals("namespaces") || "true".equals(System.getenv("CI")),
                    "bubblewrap does not work here");
            SessionSpec spec = SessionSpec.builder("offline").repository("https://git.example.com/owner/name.git").branch("b").build();

            assertThatThrownBy(() -> factory.open(spec)).satisfies(thrown -> {
                Throwable cause = thrown;
                while (!(cause instanceof MaterializeException) && cause.getCause() != null) {
                    cause = cause.getCause();
                }
                assertThat(cause).isInstanceOf(MaterializeException.class);
                assertThat(((MaterializeException) cause).errorCode()).isEqualTo(StandardErrorCode.EGRESS_BLOCKED.toErrorCode());
                assertThat(cause.getMessage()).contains("could not reach the remote")
                        .endsWith("A local session has no network unless providers.local.network is host (or providers.local.isolation is none).");
            });
        }
    }
}
