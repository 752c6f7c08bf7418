package io.sandboxfactory.provider.kubernetes;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ResourceNamesTest {

    private static final ResourceNames NAMES = ResourceNames.of("me", Path.of("/state"));
    private static final String TENANT = NAMES.tenant();

    @Test
    void anIdThatIsAlreadyALabelKeepsAReadableName() {
        assertThat(NAMES.forSession("issue-42")).isEqualTo("sf-" + TENANT + "-issue-42");
        assertThat(ResourceNames.legacyName("issue-42")).isEqualTo("sf-issue-42");
    }

    @Test
    void everyNameIsADns1123LabelOfAtMost63Characters() {
        for (String id : List.of("Fix_42", "a.b", "ä-ü", "x".repeat(200), "UPPER", "ends-", "-", "a/b:c", "日本語のセッション")) {
            for (String name : List.of(NAMES.forSession(id), ResourceNames.legacyName(id))) {
                assertThat(name).as(id).hasSizeLessThanOrEqualTo(63).matches(ResourceNames.DNS_1123_LABEL);
            }
        }
    }

    @Test
    void idsThatSanitizeAlikeGetDifferentNames() {
        Set<String> names = new HashSet<>();
        for (String id : List.of("a_b", "a.b", "A-b", "a-B", "a-b", "x".repeat(100), "x".repeat(101))) {
            assertThat(names.add(NAMES.forSession(id))).as(id).isTrue();
        }
    }

    @Test
    void aChangedOrShortenedIdCarriesAHashSuffix() {
        assertThat(NAMES.forSession("Fix-42")).matches("sf-" + TENANT + "-fix-42-[0-9a-f]{12}");
        assertThat(NAMES.forSession("y".repeat(80))).hasSize(63).isEqualTo("sf-" + TENANT + "-" + "y".repeat(ResourceNames.MAX_ID_CHARS) + "-"
                + ResourceNames.shortHash("y".repeat(80)));
        assertThat(ResourceNames.legacyName("y".repeat(80))).hasSize(63);
    }

    @Test
    void theMappingIsStable() {
        assertThat(NAMES.forSession("Same Id")).isEqualTo(ResourceNames.of("me", Path.of("/state/")).forSession("Same Id"));
    }

    @Test
    void ownersAndStateDirectoriesGetTheirOwnNamesForOneSessionId() {
        Set<String> names = new HashSet<>();
        for (ResourceNames tenant : List.of(NAMES, ResourceNames.of("you", Path.of("/state")), ResourceNames.of("me", Path.of("/other")))) {
            assertThat(tenant.tenant()).matches("[0-9a-f]{8}");
            assertThat(names.add(tenant.forSession("fix-42"))).isTrue();
        }
    }

    @Test
    void ownersThatAreNoLabelValueAreHashed() {
        assertThat(SessionLabels.labelValue("ci-runner-7")).isEqualTo("ci-runner-7");
        assertThat(SessionLabels.labelValue("runner.")).matches("runner\\.-[0-9a-f]{12}");
        assertThat(SessionLabels.isValidLabelValue(SessionLabels.labelValue("_x_"))).isTrue();
    }
}
