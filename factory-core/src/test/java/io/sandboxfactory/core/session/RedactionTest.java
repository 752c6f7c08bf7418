package io.sandboxfactory.core.session;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class RedactionTest {

    private static final String GITHUB = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";

    @Test
    void everyKnownSecretIsMaskedTheLongestFirst() {
        Redaction redaction = Redaction.of(List.of("s3cret", "s3cret-and-more"));

        assertThat(redaction.apply("a s3cret-and-more, then s3cret alone")).isEqualTo("a ****, then **** alone");
    }

    @Test
    void wellKnownTokenShapesAreMaskedWithoutBeingToldTheValue() {
        Redaction shapes = Redaction.shapes();

        assertThat(shapes.apply("token " + GITHUB + " end")).isEqualTo("token **** end");
        assertThat(shapes.apply("github_pat_11ABCDEFG0123456789_abcdefghijklmnop")).isEqualTo("****");
        assertThat(shapes.apply("gho_" + "0123456789abcdefghijABCDEFGHIJ")).isEqualTo("****");
        assertThat(shapes.apply("glpat-" + "abcdefghij0123456789")).isEqualTo("****");
        assertThat(shapes.apply("xoxb-1234567890-abcdef")).isEqualTo("****");
        assertThat(shapes.apply("key=AKIAIOSFODNN7EXAMPLE;")).isEqualTo("key=****;");
    }

    @Test
    void textThatOnlyResemblesATokenStays() {
        Redaction shapes = Redaction.shapes();

        assertThat(shapes.apply("ghp_short and AKIA-not-a-key and glpat-")).isEqualTo("ghp_short and AKIA-not-a-key and glpat-");
        assertThat(shapes.apply(null)).isNull();
        assertThat(shapes.apply("")).isEmpty();
    }

    @Test
    void valuesTooShortToBeSecretsAreNotMaskedEverywhere() {
        assertThat(Redaction.of(List.of("1", "ab", "xyz")).apply("1 ab xyz")).isEqualTo("1 ab xyz");
    }

    @Test
    void anEnvironmentGivesTheValuesOfTheVariablesNamedLikeSecrets() {
        Redaction redaction = Redaction.ofEnvironment(Map.of("GH_TOKEN", "tok-value-1", "SF_PG_PASSWORD", "pw-value-2",
                "NPM_AUTH", "auth-value-3", "HOME", "/home/user-value", "FACTORY_STORE_PASSWORD_ENV", "PG_PASSWORD_NAME"));

        assertThat(redaction.apply("tok-value-1 pw-value-2 auth-value-3 /home/user-value PG_PASSWORD_NAME"))
                .as("a variable ending in _ENV names another one").isEqualTo("**** **** **** /home/user-value PG_PASSWORD_NAME");
        assertThat(redaction.and(Redaction.of(List.of("/home/user-value"))).apply("/home/user-value")).isEqualTo("****");
        assertThat(redaction.toString()).doesNotContain("tok-value-1");
    }

    @Test
    void aVariableNamingTheOneThatHoldsASecretGetsThatOneMasked() {
        Redaction redaction = Redaction.ofEnvironment(Map.of("FACTORY_STORE_PASSWORD_ENV", "PGPW", "PGPW", "store-pw-value",
                "FACTORY_PLUGINS_ENV", "HOME", "HOME", "/home/user-value"));

        assertThat(redaction.apply("store-pw-value /home/user-value PGPW")).isEqualTo("**** /home/user-value PGPW");
    }

    @Test
    void aFlagUnderASecretLookingNameIsNoSecret() {
        Redaction redaction = Redaction.ofEnvironment(Map.of("FACTORY_REPOSITORY_EXPOSE_TOKEN", "true", "OTHER_TOKEN", "False",
                "REAL_TOKEN", "s3cr3t-value"));
        assertThat(redaction.apply("{\"exposeToken\" : true, \"x\" : false, \"t\" : \"s3cr3t-value\"}"))
                .isEqualTo("{\"exposeToken\" : true, \"x\" : false, \"t\" : \"****\"}");
    }
}
