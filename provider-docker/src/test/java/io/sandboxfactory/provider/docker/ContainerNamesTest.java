package io.sandboxfactory.provider.docker;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ContainerNamesTest {

    private static final Tenant T = new Tenant("alice", "1a2b3c4d");

    @Test
    void twoTenantsGetTwoNamesForOneSessionAndTheLegacyNameHasNoTenant() {
        Tenant bob = Tenant.of("bob", java.nio.file.Path.of("/home/bob/.sandbox-factory"));
        Tenant bobElsewhere = Tenant.of("bob", java.nio.file.Path.of("/srv/other-state"));
        assertThat(bob.key()).hasSize(Tenant.KEY_HEX_DIGITS).isNotEqualTo(bobElsewhere.key());
        assertThat(ContainerNames.forSession(bob, "fix-42")).isEqualTo("sf-" + bob.key() + "-fix-42")
                .isNotEqualTo(ContainerNames.forSession(bobElsewhere, "fix-42"))
                .isNotEqualTo(ContainerNames.forSession(T, "fix-42"));
        assertThat(ContainerNames.legacyName("fix-42")).isEqualTo("sf-fix-42");
    }

    @Test
    void keepsASafeShortIdReadable() {
        assertThat(ContainerNames.forSession(T, "issue-42")).isEqualTo("sf-1a2b3c4d-issue-42");
        assertThat(ContainerNames.forSession(T, "A_b.C-9")).isEqualTo("sf-1a2b3c4d-A_b.C-9");
    }

    @Test
    void replacesUnsafeCharactersAndAddsAHashOfTheRawId() {
        String name = ContainerNames.forSession(T, "owner/repo#7");
        assertThat(name).startsWith("sf-1a2b3c4d-owner_repo_7-").hasSize("sf-1a2b3c4d-owner_repo_7-".length() + ContainerNames.HASH_HEX_DIGITS);
        assertThat(name).isEqualTo(ContainerNames.forSession(T, "owner/repo#7"));
    }

    @Test
    void idsThatSanitizeAlikeGetDifferentNames() {
        List<String> ids = List.of("a/b", "a:b", "a b", "a_b", "a\u00e9b", "a\u00e8b", "a\uD83D\uDE00b");
        Set<String> names = new HashSet<>();
        ids.forEach(id -> names.add(ContainerNames.forSession(T, id)));
        assertThat(names).hasSameSizeAs(ids);
    }

    @Test
    void cutsLongIdsAndKeepsThemApart() {
        String common = "x".repeat(ContainerNames.MAX_ID_CHARS);
        String one = ContainerNames.forSession(T, common + "-one");
        String two = ContainerNames.forSession(T, common + "-two");
        assertThat(one).isNotEqualTo(two);
        assertThat(one).hasSize(ContainerNames.MAX_NAME_CHARS).startsWith("sf-1a2b3c4d-" + common + "-");
        // Exactly at the limit nothing is cut, so no hash is needed.
        assertThat(ContainerNames.forSession(T, common)).isEqualTo("sf-1a2b3c4d-" + common);
    }

    @Test
    void countsUnicodeByCharacterNotByUtf16Unit() {
        String emoji = "\uD83D\uDE00";
        String name = ContainerNames.forSession(T, emoji.repeat(3));
        assertThat(name).startsWith("sf-1a2b3c4d-___-");
    }

    @ParameterizedTest
    @ValueSource(strings = {"x", "-", ".hidden", "..", "../../etc", "UPPER lower", "tab\there", "nul\u0000byte",
            "\u65e5\u672c\u8a9e", "\uD83D\uDE00", "semi;colon", "a\nb", "-leading-dash"})
    void everyNameIsAValidDockerName(String sessionId) {
        String name = ContainerNames.forSession(T, sessionId);
        assertThat(name).matches(ContainerNames.DOCKER_NAME).startsWith(ContainerNames.PREFIX + T.key() + "-");
        assertThat(name.length()).isLessThanOrEqualTo(ContainerNames.MAX_NAME_CHARS);
    }

    @Test
    void veryLongUnicodeIdStaysWithinTheLimit() {
        String name = ContainerNames.forSession(T, "\u00e9".repeat(500));
        assertThat(name).matches(ContainerNames.DOCKER_NAME).hasSize(ContainerNames.MAX_NAME_CHARS);
    }
}
