package io.sandboxfactory.api;

import io.sandboxfactory.api.error.ErrorCode;
import io.sandboxfactory.api.error.ErrorCodeSupplier;
import io.sandboxfactory.api.error.ErrorKind;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.files.PathOutsideRootException;
import io.sandboxfactory.api.files.SandboxFileException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A code is a name, a kind and a meaning; an exception takes any module's code and reports its name. */
class ErrorCodeTest {

    /** A third-party provider's codes, as its own enum: no string codes, no deprecated constructor. */
    private enum QuotaCode implements ErrorCodeSupplier {
        QUOTA_EXCEEDED(ErrorKind.SANDBOX, "The tenant's quota is used up. Retire sessions or raise the quota.");

        private final ErrorCode code;

        QuotaCode(ErrorKind kind, String meaning) {
            this.code = new ErrorCode(name(), kind, meaning);
        }

        @Override
        public ErrorCode toErrorCode() {
            return code;
        }
    }

    @Test
    void codesKeepTheirStringsAndKinds() {
        assertThat(new SandboxDestroyedException("gone").code()).isEqualTo("DESTROYED");
        assertThat(new SandboxDestroyedException("gone").kind()).isEqualTo(ErrorKind.SANDBOX);
        assertThat(new SandboxExecTransportException("broken", false, null).errorCode()).isEqualTo(StandardErrorCode.EXEC_TRANSPORT.toErrorCode());
        assertThat(new PathOutsideRootException("../x", "/w", "it holds ..").kind()).isEqualTo(ErrorKind.BAD_INPUT);
        assertThat(SandboxFileException.NOT_FOUND).isEqualTo(StandardErrorCode.FILE_NOT_FOUND.toErrorCode().name());
        assertThat(new InvalidInputException(StandardErrorCode.INVALID_REF, "bad ref")).isInstanceOf(IllegalArgumentException.class)
                .extracting(InvalidInputException::kind).isEqualTo(ErrorKind.BAD_INPUT);
    }

    @Test
    void everyStandardCodeIsNamedAsItsConstant() {
        for (StandardErrorCode code : StandardErrorCode.values()) {
            assertThat(code.toErrorCode().name()).isEqualTo(code.name());
            assertThat(code.toErrorCode()).isSameAs(code.toErrorCode());
        }
    }

    @Test
    void aProvidersOwnCodeIsItsNameAndKind() {
        SandboxException own = new SandboxException(QuotaCode.QUOTA_EXCEEDED, "the provider's own code");

        assertThat(own.code()).isEqualTo("QUOTA_EXCEEDED");
        assertThat(own.kind()).isEqualTo(ErrorKind.SANDBOX);
        assertThat(own.errorCode()).isEqualTo(QuotaCode.QUOTA_EXCEEDED.toErrorCode());
        assertThat(new SandboxFileException(QuotaCode.QUOTA_EXCEEDED, "a", "full").code()).isEqualTo("QUOTA_EXCEEDED");
    }

    @Test
    void noCodeIsSandboxErrorOrInvalidArgument() {
        assertThat(new SandboxException(null, "no code").code()).isEqualTo("SANDBOX_ERROR");
        assertThat(new InvalidInputException(null, "no code").code()).isEqualTo("INVALID_ARGUMENT");
    }

    @Test
    void aCodeRethrownKeepsItself() {
        SandboxException first = new SandboxException(QuotaCode.QUOTA_EXCEEDED, "first");

        assertThat(new SandboxException(first.errorCode(), "again", first).errorCode()).isSameAs(first.errorCode());
    }

    @Test
    void aCodeNeedsAnUpperCaseNameAKindAndAOneLineMeaning() {
        assertThatThrownBy(() -> new ErrorCode("quota", ErrorKind.SANDBOX, "m")).hasMessageContaining("must match [A-Z][A-Z0-9_]*");
        assertThatThrownBy(() -> new ErrorCode("QUOTA-X", ErrorKind.SANDBOX, "m")).hasMessageContaining("must match");
        assertThatThrownBy(() -> new ErrorCode("QUOTA", null, "m")).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new ErrorCode("QUOTA", ErrorKind.SANDBOX, " ")).hasMessage("Error code QUOTA needs a meaning of one line.");
        assertThatThrownBy(() -> new ErrorCode("QUOTA", ErrorKind.SANDBOX, "a\nb")).hasMessage("Error code QUOTA needs a meaning of one line.");
        assertThat(new ErrorCode("QUOTA_2", ErrorKind.INFRASTRUCTURE, "m")).hasToString("QUOTA_2");
    }
}
