package io.sandboxfactory.provider.docker;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ContainerNamesTest {

    @Test
    void keepsASafeShortIdReadable() {
        assertThat(ContainerNames.forSession("issue-42")).isEqualTo("sf-issue-42");
        assertThat(ContainerNames.forSession("A_b.C-9")).isEqualTo("sf-A_b.C-9");
    }

    @Test
    void replacesUnsafeCharactersAndAddsAHashOfTheRawId() {
        String name = ContainerNames.forSession("owner/repo#7");
        assertThat(name).startsWith("sf-owner_repo_7-").hasSize("sf-owner_repo_7-".length() + ContainerNames.HASH_HEX_DIGITS);
        assertThat(name).isEqualTo(ContainerNames.forSession("owner/repo#7"));
    }

    @Test
    void idsThatSanitizeAlikeGetDifferentNames() {
        List<String> ids = List.of("a/b", "a:b", "a b", "a_b", "a\u00e9b", "a\u00e8b", "a\uD83D\uDE00b");
        Set<String> names = new HashSet<>();
        ids.forEach(id -> names.add(ContainerNames.forSession(id)));
        assertThat(names).hasSameSizeAs(ids);
    }

    @Test
    void cutsLongIdsAndKeepsThemApart() {
        String common = "x".repeat(ContainerNames.MAX_ID_CHARS);
        String one = ContainerNames.forSession(common + "-one");
        String two = ContainerNames.forSession(common + "-two");
        assertThat(one).isNotEqualTo(two);
        assertThat(one).hasSize(ContainerNames.MAX_NAME_CHARS).startsWith("sf-" + common + "-");
        // Exactly at the limit nothing is cut, so no hash is needed.
        assertThat(ContainerNames.forSession(common)).isEqualTo("sf-" + common);
    }

    @Test
    void countsUnicodeByCharacterNotByUtf16Unit() {
        String emoji = "\uD83D\uDE00";
        String name = ContainerNames.forSession(emoji.repeat(3));
        assertThat(name).startsWith("sf-___-");
    }

    @ParameterizedTest
    @ValueSource(strings = {"x", "-", ".hidden", "..", "../../etc", "UPPER lower", "tab\there", "nul\u0000byte",
            "\u65e5\u672c\u8a9e", "\uD83D\uDE00", "semi;colon", "a\nb", "-leading-dash"})
    void everyNameIsAValidDockerName(String sessionId) {
        String name = ContainerNames.forSession(sessionId);
        assertThat(name).matches(ContainerNames.DOCKER_NAME).startsWith(ContainerNames.PREFIX);
        assertThat(name.length()).isLessThanOrEqualTo(ContainerNames.MAX_NAME_CHARS);
    }

    @Test
    void veryLongUnicodeIdStaysWithinTheLimit() {
        String name = ContainerNames.forSession("\u00e9".repeat(500));
        assertThat(name).matches(ContainerNames.DOCKER_NAME).hasSize(ContainerNames.MAX_NAME_CHARS);
    }
}
