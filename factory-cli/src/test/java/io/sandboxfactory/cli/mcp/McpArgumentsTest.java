package io.sandboxfactory.cli.mcp;

import io.sandboxfactory.cli.BadInputException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class McpArgumentsTest {

    private static final Set<String> KNOWN = Set.of("id", "count", "all", "names", "labels");

    @Test
    void readsEachTypeAndNamesTheArgumentThatIsWrong() {
        McpArguments args = new McpArguments("t", Map.of("id", "x", "count", 3, "all", true, "names", List.of("a"),
                "labels", Map.of("k", "v")), KNOWN);
        assertThat(args.string("id")).isEqualTo("x");
        assertThat(args.number("count", 0, 1)).isEqualTo(3);
        assertThat(args.flag("all")).isTrue();
        assertThat(args.strings("names")).containsExactly("a");
        assertThat(args.stringMap("labels")).containsEntry("k", "v");

        McpArguments wrong = new McpArguments("t", Map.of("id", 7, "count", 1.5, "all", "yes", "names", "a"), KNOWN);
        assertThatThrownBy(() -> wrong.string("id")).hasMessage("Argument 'id' of tool t must be a string, not 7.");
        assertThatThrownBy(() -> wrong.number("count", 0, 0)).hasMessageContaining("'count'").hasMessageContaining("whole number");
        assertThatThrownBy(() -> wrong.flag("all")).hasMessageContaining("true or false");
        assertThatThrownBy(() -> wrong.strings("names")).hasMessageContaining("array of strings");
        assertThatThrownBy(() -> new McpArguments("t", Map.of("count", -1), KNOWN).number("count", 0, 0))
                .hasMessageContaining("at least 0");
    }

    @Test
    void aMissingOrUnknownArgumentIsNamed() {
        assertThatThrownBy(() -> new McpArguments("t", Map.of(), KNOWN).string("id")).isInstanceOf(BadInputException.class)
                .hasMessage("Tool t needs the argument 'id'.");
        assertThatThrownBy(() -> new McpArguments("t", Map.of("colour", "red"), KNOWN)).isInstanceOf(BadInputException.class)
                .hasMessageContaining("no argument 'colour'");
        assertThat(new McpArguments("t", null, KNOWN).optionalString("id")).isEmpty();
    }
}
