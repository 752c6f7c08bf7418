package io.sandboxfactory.cli.session;

import io.sandboxfactory.cli.BadInputException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FileEditTest {

    @Test
    void replacesTheOneOccurrence() {
        FileEdit.Edited edited = FileEdit.apply("a = 1\nb = 2\n", "b = 2", "b = 3", false, "s:f");
        assertThat(edited.text()).isEqualTo("a = 1\nb = 3\n");
        assertThat(edited.replacements()).isEqualTo(1);
    }

    @Test
    void replacesEveryOccurrenceOnlyWhenAskedTo() {
        assertThatThrownBy(() -> FileEdit.apply("x x x", "x", "y", false, "s:f")).isInstanceOf(BadInputException.class)
                .hasMessageContaining("'x' occurs 3 times in s:f");
        FileEdit.Edited edited = FileEdit.apply("x x x", "x", "y", true, "s:f");
        assertThat(edited.text()).isEqualTo("y y y");
        assertThat(edited.replacements()).isEqualTo(3);
    }

    @Test
    void refusesAnAbsentEmptyOrUnchangingString() {
        assertThatThrownBy(() -> FileEdit.apply("abc", "line one\nline two", "z", false, "s:f"))
                .hasMessageContaining("'line one\\nline two' does not occur in s:f");
        assertThatThrownBy(() -> FileEdit.apply("abc", "", "z", false, "s:f")).hasMessageContaining("old_string is empty");
        assertThatThrownBy(() -> FileEdit.apply("abc", "b", "b", false, "s:f")).hasMessageContaining("the same");
    }

    @Test
    void countsOccurrencesThatDoNotOverlap() {
        assertThat(FileEdit.occurrences("aaaa", "aa")).isEqualTo(2);
        assertThat(FileEdit.apply("aaaa", "aa", "b", true, "s:f").text()).isEqualTo("bb");
    }
}
