package io.sandboxfactory.core.internal.discovery;

import io.sandboxfactory.api.error.ErrorCode;
import io.sandboxfactory.api.error.ErrorKind;
import io.sandboxfactory.api.error.StandardErrorCode;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ErrorCodeOwnersTest {

    private static ErrorCode code(String name) {
        return new ErrorCode(name, ErrorKind.SANDBOX, "A test code.");
    }

    @Test
    void aNameOfTheFrameworkOrOfAnotherModuleIsAClash() {
        ErrorCodeOwners owners = new ErrorCodeOwners();

        assertThat(owners.claim("provider 'a'", List.of(code("QUOTA_EXCEEDED")))).isEmpty();
        assertThat(owners.claim("provider 'b'", List.of(code("DESTROYED"), code("QUOTA_EXCEEDED"), code("B_ONLY")))).containsExactly(
                "Error code DESTROYED is declared by the framework (StandardErrorCode) and by provider 'b'; a module's codes need"
                        + " names no other module uses.",
                "Error code QUOTA_EXCEEDED is declared by provider 'a' and by provider 'b'; a module's codes need names no other"
                        + " module uses.");
        assertThat(owners.claim("provider 'c'", List.of(code("C_ONLY"), code("C_ONLY")))).containsExactly(
                "Error code C_ONLY is declared by provider 'c' and by provider 'c' twice; a module's codes need names no other"
                        + " module uses.");
    }

    @Test
    void nullCodesAreProblemsAndNoCodesAreNone() {
        ErrorCodeOwners owners = new ErrorCodeOwners();

        assertThat(owners.claim("provider 'a'", null)).isEmpty();
        assertThat(owners.claim("provider 'a'", Arrays.asList(code("A_ONE"), null))).containsExactly("provider 'a' declares a null error code.");
    }
}
