package io.sandboxfactory.provider.kubernetes;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ResourceNamesTest {

    @Test
    void anIdThatIsAlreadyALabelKeepsAReadableName() {
        assertThat(ResourceNames.forSession("issue-42")).isEqualTo("sf-issue-42");
    }

    @Test
    void everyNameIsADns1123LabelOfAtMost63Characters() {
        for (String id : List.of("Fix_42", "a.b", "ä-ü", "x".repeat(200), "UPPER", "ends-", "-", "a/b:c", "日本語のセッション")) {
            String name = ResourceNames.forSession(id);
            assertThat(name).as(id).hasSizeLessThanOrEqualTo(63).matches(ResourceNames.DNS_1123_LABEL);
        }
    }

    @Test
    void idsThatSanitizeAlikeGetDifferentNames() {
        Set<String> names = new HashSet<>();
        for (String id : List.of("a_b", "a.b", "A-b", "a-B", "a-b", "x".repeat(100), "x".repeat(101))) {
            assertThat(names.add(ResourceNames.forSession(id))).as(id).isTrue();
        }
    }

    @Test
    void aChangedOrShortenedIdCarriesAHashSuffix() {
        assertThat(ResourceNames.forSession("Fix-42")).matches("sf-fix-42-[0-9a-f]{12}");
        assertThat(ResourceNames.forSession("y".repeat(80))).isEqualTo("sf-" + "y".repeat(ResourceNames.MAX_ID_CHARS) + "-"
                + ResourceNames.shortHash("y".repeat(80)));
    }

    @Test
    void theMappingIsStable() {
        assertThat(ResourceNames.forSession("Same Id")).isEqualTo(ResourceNames.forSession("Same Id"));
    }

    @Test
    void ownersThatAreNoLabelValueAreHashed() {
        assertThat(SessionLabels.labelValue("ci-runner-7")).isEqualTo("ci-runner-7");
        assertThat(SessionLabels.labelValue("runner.")).matches("runner\\.-[0-9a-f]{12}");
        assertThat(SessionLabels.isValidLabelValue(SessionLabels.labelValue("_x_"))).isTrue();
    }
}
