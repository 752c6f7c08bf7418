package io.sandboxfactory.api.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Clone URLs never carry credentials, and tokens never show in text. */
class RepositoryAccessTest {

    private static final String TOKEN = "ghs_T0k3nValue";

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "https://alice:pw-s3cret@github.com/o/r.git | https://***@github.com/o/r.git | pw-s3cret",
        "https://ghs_T0k3nValue@github.com/o/r.git | https://***@github.com/o/r.git | ghs_T0k3nValue",
        "HTTP://alice:pw-s3cret@example.com:8080/r | HTTP://***@example.com:8080/r | pw-s3cret",
        "https://alice:p@ss-s3cret@github.com/o/r.git | https://***@github.com/o/r.git | ss-s3cret",
        "https://alice:pa/ss-s3cret@github.com/o/r.git | https://***@github.com/o/r.git | ss-s3cret",
        "https://alice:pa?ss-s3cret@github.com/o/r.git | https://***@github.com/o/r.git | ss-s3cret",
        "ssh://git:pw-s3cret@github.com/o/r.git | ssh://***@github.com/o/r.git | pw-s3cret",
        "sftp://alice@example.com/r.git | sftp://***@example.com/r.git | alice",
    })
    void urlsWithCredentialsAreRejectedWithoutEchoingThem(String url, String shown, String secret) {
        assertThatThrownBy(() -> RepositoryAccess.anonymous(url))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Clone URL '" + shown + "' is invalid; it must not contain credentials"
                        + " (pass a token as the authorization instead).")
                .message().doesNotContain(secret).doesNotContain("alice");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "https://github.com/o/r.git",
        "https://example.com:8443/o/r.git",
        "https://example.com/o/r@v2.git",
        "https://[::1]:8080/o/r.git",
        "file:///srv/git/r.git",
        "/srv/git/r.git",
        "git://127.0.0.1/r.git",
        "ssh://git@github.com/o/r.git",
        "git+ssh://git@github.com/o/r.git",
        "git@github.com:o/r.git",
    })
    void cleanUrlsAreAccepted(String url) {
        assertThat(RepositoryAccess.anonymous(url).cloneUrl()).isEqualTo(url);
    }

    @Test
    void authorizationToStringHidesTheToken() {
        RepositoryAccess.Authorization authorization = RepositoryAccess.Authorization.bearer(TOKEN);
        RepositoryAccess access = new RepositoryAccess("https://github.com/o/r.git", Optional.of(authorization));

        assertThat(authorization.toString()).isEqualTo("Authorization[username=x-access-token, token=***]");
        assertThat(access.toString()).doesNotContain(TOKEN).contains("https://github.com/o/r.git");
        assertThat(authorization.token()).isEqualTo(TOKEN);
    }

    @Test
    void authorizationKeepsAGivenUsername() {
        assertThat(new RepositoryAccess.Authorization(TOKEN, "oauth2").username()).isEqualTo("oauth2");
    }

    @Test
    void blankTokenIsRejected() {
        assertThatThrownBy(() -> RepositoryAccess.Authorization.bearer("  "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("The repository token is blank; pass a real token or no authorization.");
    }
}
