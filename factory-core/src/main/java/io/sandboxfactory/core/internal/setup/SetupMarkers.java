package io.sandboxfactory.core.internal.setup;

import io.sandboxfactory.api.support.Sandboxes;
import io.sandboxfactory.core.session.SessionLayout;

import java.util.Collection;

/**
 * Where the setup gate keeps its markers inside the sandbox (design §5.3): {@code .mastra-sandbox/}
 * under the session root, beside the checkouts, so a wiped checkout reads as "not done". Files:
 * {@code setup}, {@code workspace-setup}, {@code repos/<repoDir>} and {@code setup-failed} (one
 * repoDir per line).
 */
public final class SetupMarkers {

    /** The marker directory's name under the session root. */
    public static final String DIRECTORY = ".mastra-sandbox";
    public static final String SETUP = "setup";
    public static final String WORKSPACE_SETUP = "workspace-setup";
    public static final String REPOS = "repos";
    public static final String SETUP_FAILED = "setup-failed";

    private final String root;

    /** @param root the session root inside the sandbox */
    public SetupMarkers(String root) {
        this.root = root;
    }

    /** The setup marker files of the session laid out as {@code layout}. */
    public static SetupMarkers of(SessionLayout layout) {
        return new SetupMarkers(layout.root().equals("/") ? "" : layout.root());
    }

    public String directory() {
        return root + "/" + DIRECTORY;
    }

    public String setup() {
        return directory() + "/" + SETUP;
    }

    public String workspaceSetup() {
        return directory() + "/" + WORKSPACE_SETUP;
    }

    public String repo(String repoDir) {
        return directory() + "/" + REPOS + "/" + repoDir;
    }

    public String setupFailed() {
        return directory() + "/" + SETUP_FAILED;
    }

    /** Shell code writing {@code content} and a newline to {@code file} atomically (temp file, then rename). */
    public static String writeScript(String file, String content) {
        String q = Sandboxes.quote(file);
        String tmp = Sandboxes.quote(file + ".tmp");
        return "mkdir -p " + Sandboxes.quote(parentOf(file)) + " && printf '%s\\n' " + Sandboxes.quote(content) + " > " + tmp
                + " && mv -f " + tmp + " " + q;
    }

    /** Shell code writing the repoDirs whose setup failed, one per line; removes the file when none did. */
    public String writeSetupFailedScript(Collection<String> repoDirs) {
        if (repoDirs.isEmpty()) {
            return "rm -f " + Sandboxes.quote(setupFailed());
        }
        return writeScript(setupFailed(), String.join("\n", repoDirs));
    }

    private static String parentOf(String file) {
        return file.substring(0, file.lastIndexOf('/'));
    }
}
