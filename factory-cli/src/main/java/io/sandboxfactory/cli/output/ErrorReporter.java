package io.sandboxfactory.cli.output;

import io.sandboxfactory.api.error.ErrorCode;
import io.sandboxfactory.api.error.ErrorCoded;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.cli.BadInputException;
import io.sandboxfactory.cli.CliErrorCode;
import io.sandboxfactory.cli.ExitCodes;
import io.sandboxfactory.cli.GlobalOptions;
import io.sandboxfactory.core.FactoryConfigurationException;
import picocli.CommandLine;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Turns an exception into an exit code and one sentence on stderr (or a JSON error document with
 * {@code --json}); the stack trace only with {@code --verbose}. The exit code comes from the kind
 * of the failure's {@link ErrorCode}: an {@code IllegalArgumentException} without one is a bug, not
 * bad input.
 */
public final class ErrorReporter implements CommandLine.IExecutionExceptionHandler {

    private final Console console;
    private final GlobalOptions global;

    public ErrorReporter(Console console, GlobalOptions global) {
        this.console = console;
        this.global = global;
    }

    @Override
    public int handleExecutionException(Exception e, CommandLine commandLine, CommandLine.ParseResult parseResult) {
        int code = exitCode(e);
        if (global.json) {
            Map<String, Object> doc = document(e);
            doc.put("exitCode", code);
            Json.print(console, doc);
        }
        console.err().println("factory: " + console.redaction().apply(message(e)));
        if (global.verbose) {
            e.printStackTrace(console.err());
        }
        return code;
    }

    /** The exit code of {@code e}'s kind ({@link ExitCodes#of}); an exception that carries no code is an internal error. */
    static int exitCode(Throwable e) {
        return ExitCodes.of(errorCode(e).kind());
    }

    /** The first code on the cause chain: the outermost failure that says what it is. */
    static ErrorCode errorCode(Throwable e) {
        return coded(e).map(ErrorCoded::errorCode).orElse(CliErrorCode.FAILED.toErrorCode());
    }

    /**
     * A failure for a client that reads structure ({@code --json}, MCP): its sentence ({@code error}),
     * its code ({@code code}, a provider's own included) and the code's kind ({@code kind}: whether to
     * change the input, or the sandbox or the infrastructure failed).
     */
    public static Map<String, Object> document(Throwable e) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("error", message(e));
        doc.put("code", code(e));
        doc.put("kind", errorCode(e).kind().name());
        return doc;
    }

    private static String code(Throwable e) {
        return coded(e).map(ErrorCoded::code).orElse(CliErrorCode.FAILED.toErrorCode().name());
    }

    private static Optional<ErrorCoded> coded(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ErrorCoded coded) {
                return Optional.of(coded);
            }
        }
        return Optional.empty();
    }

    /** The most specific sentence: the innermost exception that carries a message of ours. */
    public static String message(Throwable e) {
        String best = null;
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()
                    && (t instanceof SandboxException || t instanceof IllegalArgumentException || t instanceof BadInputException
                    || t instanceof IllegalStateException)) {
                best = t.getMessage();
                if (!(t instanceof io.sandboxfactory.api.SandboxStartHookException)) {
                    break;
                }
            }
        }
        if (best == null) {
            best = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        }
        return best;
    }
}
