package io.sandboxfactory.core.internal.setup;

import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.support.Sandboxes;
import io.sandboxfactory.core.internal.config.InputText;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * A list of setup (or teardown) commands as one unit: blank commands are dropped, the rest are
 * {@link #text() joined with a newline}. That text is what the marker hashes and what the
 * failed-command record remembers, so editing any command makes the unit new.
 */
public final class SetupCommands {

    private final List<String> commands;
    private final String text;

    private SetupCommands(List<String> commands) {
        this.commands = commands;
        this.text = String.join("\n", commands);
    }

    /** The non-blank commands of {@code commands}, in order. */
    public static SetupCommands of(List<String> commands) {
        Objects.requireNonNull(commands, "commands");
        return new SetupCommands(commands.stream().filter(Objects::nonNull).filter(c -> !c.isBlank()).toList());
    }

    /**
     * Returns {@code commands} unless one holds a NUL character, which no process argument can carry
     * (the command would be cut short or refused after the sandbox exists); then fails with one
     * sentence naming the command (escaped) and the rule.
     *
     * @param what how to call one command in the message, e.g. {@code "Setup command"}
     */
    public static List<String> requireRunnable(List<String> commands, String what) {
        Objects.requireNonNull(commands, "commands");
        for (String command : commands) {
            if (command != null && command.indexOf('\0') >= 0) {
                throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, what + " '" + InputText.shown(command)
                        + "' is invalid: it must not contain NUL characters, which no process argument can hold.");
            }
        }
        return commands;
    }

    /** Whether there is nothing to run. */
    public boolean isEmpty() {
        return commands.isEmpty();
    }

    /** The commands joined with {@code \n}: the identity of this unit. */
    public String text() {
        return text;
    }

    public List<String> commands() {
        return commands;
    }

    /** {@code sha256:} and the hex SHA-256 of {@link #text()}: what the marker file holds once setup succeeded. */
    public String markerContent() {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return "sha256:" + HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /**
     * A shell script running every command in {@code directory}, stopping at the first failure:
     * {@code cd <dir> && { <cmd1>\n} && { <cmd2>\n}}. Each command keeps its own shell syntax.
     */
    public String scriptIn(String directory) {
        StringBuilder script = new StringBuilder("cd ").append(Sandboxes.quote(directory));
        for (String command : commands) {
            script.append(" && {\n").append(command).append("\n}");
        }
        return script.toString();
    }

    /**
     * A shell script running every command in {@code directory} even when an earlier one fails,
     * exiting with the last failure's status: for teardown, where each command cleans up its own part.
     */
    public String scriptRunningAllIn(String directory) {
        StringBuilder script = new StringBuilder("cd ").append(Sandboxes.quote(directory)).append(" || exit 1\nrc=0\n");
        for (String command : commands) {
            script.append("{\n").append(command).append("\n} || rc=$?\n");
        }
        return script.append("exit $rc\n").toString();
    }

    @Override
    public String toString() {
        return "SetupCommands" + commands;
    }
}
