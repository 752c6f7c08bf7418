package io.sandboxfactory.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** The commit a run measured, for the report's header: figures mean little without the code they timed. */
final class SourceCommit {

    private SourceCommit() {
    }

    /**
     * {@code git describe --always --dirty} of the checkout at {@code directory} (the commit id,
     * {@code -dirty} when files differ from it), or a phrase saying why there is none.
     */
    static String of(Path directory) {
        try {
            Process git = new ProcessBuilder("git", "-C", directory.toString(), "describe", "--always", "--dirty", "--abbrev=12")
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!git.waitFor(30, TimeUnit.SECONDS)) {
                git.destroyForcibly();
                return "unknown (git did not answer)";
            }
            return git.exitValue() == 0 && !out.isEmpty() ? out : "unknown (" + directory + " is not a git checkout)";
        } catch (IOException e) {
            return "unknown (no git: " + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown (interrupted)";
        }
    }
}
