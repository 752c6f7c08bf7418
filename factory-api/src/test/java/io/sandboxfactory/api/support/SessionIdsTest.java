package io.sandboxfactory.api.support;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SessionIdsTest {

    @Test
    void idsTheFrameworkAcceptsIncludeSpacesQuotesAndNonAsciiLetters() {
        assertThat(SessionIds.isValid("fix bug #12 'now'")).isTrue();
        assertThat(SessionIds.isValid("ünïcødé-日本")).isTrue();
        assertThat(SessionIds.isValid("a".repeat(SessionIds.MAX_LENGTH))).isTrue();
    }

    @Test
    void eachRuleNamesItself() {
        assertThat(SessionIds.problem("")).contains("it must not be blank");
        assertThat(SessionIds.problem("a/b")).contains("it must not contain '/' or '\\'");
        assertThat(SessionIds.problem(".hidden")).contains("it must not start with '.'");
        assertThat(SessionIds.problem("-flag")).contains("it must not start with '-'");
        assertThat(SessionIds.problem(" padded")).contains("it must not start or end with whitespace");
        assertThat(SessionIds.problem("tab\there")).contains("it must not contain control or invisible formatting characters");
        assertThat(SessionIds.problem("a".repeat(SessionIds.MAX_LENGTH + 1))).contains("it must be at most 200 characters long");
        assertThat(SessionIds.problem("é".repeat(128))).contains("it must be at most 255 bytes long in UTF-8");
        assertThat(SessionIds.problem("\uD800x")).contains("it must be valid Unicode text (it holds an unpaired surrogate)");
    }
}
