package io.sandboxfactory.core.internal.git;

import io.sandboxfactory.api.host.RepositoryAccess;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class GitCredentialsTest {

    private static final String TOKEN = "ghs_secretvalue123";

    private static RepositoryAccess access(String url) {
        return new RepositoryAccess(url, Optional.of(RepositoryAccess.Authorization.bearer(TOKEN)));
    }

    @Test
    void theTokenTravelsOnlyInTheEnvironmentAndTheHelperIsScopedToTheRemote() {
        GitCredentials credentials = GitCredentials.of(access("https://github.com:8443/acme/app.git"));
        assertThat(credentials.active()).isTrue();
        assertThat(credentials.gitOptions()).doesNotContain(TOKEN)
                .contains("credential.https://github.com:8443.helper=")
                .contains("password=${GH_TOKEN}");
        assertThat(credentials.commandEnv()).containsEntry("GH_TOKEN", TOKEN).containsEntry("SANDBOX_FACTORY_GIT_USERNAME", "x-access-token");
        assertThat(credentials.overlayEnv()).containsEntry("GIT_CONFIG_KEY_1", "credential.https://github.com:8443.helper")
                .containsEntry("GIT_CONFIG_VALUE_0", "");
        assertThat(credentials.toString()).doesNotContain(TOKEN);
    }

    @Test
    void nonHttpRemotesAndAnonymousAccessGetNoHelper() {
        assertThat(GitCredentials.of(access("/srv/git/app.git")).active()).isFalse();
        assertThat(GitCredentials.of(access("git@github.com:acme/app.git")).gitOptions()).isEmpty();
        assertThat(GitCredentials.of(RepositoryAccess.anonymous("https://github.com/a/b.git")).commandEnv()).isEmpty();
    }
}
