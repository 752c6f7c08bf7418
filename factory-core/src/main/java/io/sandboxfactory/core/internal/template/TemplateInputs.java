package io.sandboxfactory.core.internal.template;

import io.sandboxfactory.api.CommandExecutor;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.support.Sandboxes;
import io.sandboxfactory.core.internal.config.InputText;
import io.sandboxfactory.core.template.TemplateRejectedException;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;

/**
 * The declared input files of a template ({@code repository.templateInputs}) and their hash at a
 * commit: the sha-256 of each file's git blob id (which is itself a content hash), read with one
 * {@code git rev-parse} per file inside the sandbox, so nothing is downloaded for it. A missing
 * file hashes as {@code missing}, so adding the file later changes the hash too.
 */
public final class TemplateInputs {

    private TemplateInputs() {
    }

    /** Fails unless every entry is a relative path inside the checkout without control characters. */
    public static List<String> requireValid(List<String> files) {
        for (String file : files) {
            if (file == null || file.isBlank() || file.startsWith("/") || InputText.containsHidden(file) || file.contains(":")
                    || List.of(file.split("/")).contains("..")) {
                throw new InvalidInputException(StandardErrorCode.INVALID_PATH, "Template input '" + InputText.shown(file) + "' is invalid; it must be a relative path"
                        + " inside the checkout, without '..', ':' or control characters.");
            }
        }
        return List.copyOf(files);
    }

    /** The inputs' hash at {@code ref} in the checkout {@code directory}; empty when no inputs are declared. */
    public static String hash(CommandExecutor exec, String directory, String ref, List<String> files, Duration timeout) {
        if (files.isEmpty()) {
            return "";
        }
        StringBuilder script = new StringBuilder("cd ").append(Sandboxes.quote(directory));
        for (String file : files) {
            script.append(" && { git rev-parse --verify -q ").append(Sandboxes.quote(ref + ":" + file)).append(" || echo missing; }");
        }
        CommandResult result = exec.executeCommand(script.toString(), List.of(), CommandOptions.builder().timeout(timeout).build());
        if (!result.success()) {
            throw new TemplateRejectedException("The template inputs " + files + " could not be read at " + ref + " (exit "
                    + result.exitCode() + "): " + result.stderr().strip());
        }
        List<String> blobs = result.stdout().strip().lines().toList();
        StringBuilder digest = new StringBuilder();
        for (int i = 0; i < files.size(); i++) {
            digest.append(files.get(i)).append('\0').append(i < blobs.size() ? blobs.get(i) : "missing").append('\n');
        }
        return "sha256:" + sha256(digest.toString());
    }

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }
}
