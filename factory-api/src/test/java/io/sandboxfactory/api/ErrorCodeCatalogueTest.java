package io.sandboxfactory.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** docs/errors.md lists every {@link ErrorCode} with its kind, and nothing else. */
class ErrorCodeCatalogueTest {

    /** A catalogue row: {@code | `CODE` | KIND | cause | fix |}. */
    private static final Pattern ROW = Pattern.compile("^\\|\\s*`([A-Z][A-Z0-9_]*)`\\s*\\|\\s*([A-Z_]+)\\s*\\|([^|]+)\\|([^|]+)\\|\\s*$");

    static Map<String, String> catalogue(String markdown) {
        Map<String, String> rows = new LinkedHashMap<>();
        for (String line : markdown.split("\n")) {
            Matcher row = ROW.matcher(line.strip());
            if (row.matches()) {
                if (row.group(3).isBlank() || row.group(4).isBlank()) {
                    throw new AssertionError("docs/errors.md: code " + row.group(1) + " needs a cause and a fix.");
                }
                if (rows.put(row.group(1), row.group(2)) != null) {
                    throw new AssertionError("docs/errors.md lists " + row.group(1) + " twice.");
                }
            }
        }
        return rows;
    }

    private static Map<String, String> enumKinds() {
        return Arrays.stream(ErrorCode.values()).collect(Collectors.toMap(ErrorCode::name, c -> c.kind().name(),
                (a, b) -> a, LinkedHashMap::new));
    }

    @Test
    void theCatalogueListsEveryCodeWithItsKindAndNoOther() throws IOException {
        Path docs = Path.of("..", "docs", "errors.md");
        Map<String, String> documented = catalogue(Files.readString(docs));

        assertThat(documented).as("codes and kinds in " + docs.toAbsolutePath().normalize()).isEqualTo(enumKinds());
    }

    @Test
    void theCheckFailsOnAMissingAnExtraOrAMiskindedCode() {
        String header = "| Code | Kind | Cause | Fix |\n|---|---|---|---|\n";
        String all = enumKinds().entrySet().stream().map(e -> "| `" + e.getKey() + "` | " + e.getValue() + " | c | f |")
                .collect(Collectors.joining("\n", header, "\n"));
        assertThat(catalogue(all)).isEqualTo(enumKinds());

        String missing = all.replace("| `LEASE_LOST` | INFRASTRUCTURE | c | f |\n", "");
        assertThat(catalogue(missing)).isNotEqualTo(enumKinds()).doesNotContainKey("LEASE_LOST");
        assertThat(catalogue(all + "| `NO_SUCH_CODE` | SANDBOX | c | f |\n")).containsKey("NO_SUCH_CODE").isNotEqualTo(enumKinds());
        assertThat(catalogue(all.replace("| `DESTROYED` | SANDBOX |", "| `DESTROYED` | BAD_INPUT |"))).isNotEqualTo(enumKinds());
        assertThatThrownBy(() -> catalogue(header + "| `DESTROYED` | SANDBOX |  | f |\n")).hasMessageContaining("needs a cause");
    }

    @Test
    void codesKeepTheirStringsAndKinds() {
        assertThat(new SandboxDestroyedException("gone").code()).isEqualTo("DESTROYED");
        assertThat(new SandboxDestroyedException("gone").kind()).isEqualTo(ErrorKind.SANDBOX);
        assertThat(new SandboxExecTransportException("broken", false, null).errorCode()).isEqualTo(ErrorCode.EXEC_TRANSPORT);
        assertThat(new PathOutsideRootException("../x", "/w", "it holds ..").kind()).isEqualTo(ErrorKind.BAD_INPUT);
        assertThat(SandboxFileException.NOT_FOUND).isEqualTo(ErrorCode.FILE_NOT_FOUND.name());
        assertThat(new InvalidInputException(ErrorCode.INVALID_REF, "bad ref")).isInstanceOf(IllegalArgumentException.class)
                .extracting(InvalidInputException::kind).isEqualTo(ErrorKind.BAD_INPUT);
    }

    @Test
    @SuppressWarnings("deprecation")
    void aStringCodeOfAnOlderProviderIsKept() {
        SandboxException known = new SandboxException("CWD_MISSING", "no such directory");
        assertThat(known.errorCode()).isEqualTo(ErrorCode.CWD_MISSING);
        assertThat(known.code()).isEqualTo("CWD_MISSING");

        SandboxException own = new SandboxException("QUOTA_EXCEEDED", "the provider's own code");
        assertThat(own.code()).isEqualTo("QUOTA_EXCEEDED");
        assertThat(own.errorCode()).isEqualTo(ErrorCode.SANDBOX_ERROR);
        assertThat(new SandboxException((String) null, "no code").code()).isEqualTo("SANDBOX_ERROR");
    }
}
