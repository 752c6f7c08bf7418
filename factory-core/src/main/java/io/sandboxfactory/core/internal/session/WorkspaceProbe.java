package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.CommandExecutor;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.support.Sandboxes;
import io.sandboxfactory.core.config.DurationFormat;
import io.sandboxfactory.core.internal.git.CheckoutState;
import io.sandboxfactory.core.internal.setup.SetupMarkers;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Everything a start needs to know about the sandbox, read in one round trip: {@code git
 * --version}, the session root ({@code pwd} when the sandbox has no configured working directory),
 * each checkout's state (exists, origin URL, ours, current branch) and the setup markers. One
 * script keeps a warm start to a couple of commands however slow the provider's transport is.
 */
final class WorkspaceProbe {

    /**
     * What the probe saw.
     *
     * @param gitVersion {@code git --version} output; empty when git is missing
     * @param root the session root
     * @param checkouts per repository, in plan order
     * @param markers marker file (relative to the marker directory) → its first line
     * @param setupFailed repoDirs listed in {@code setup-failed}
     */
    record Result(Optional<String> gitVersion, String root, List<CheckoutState> checkouts, Map<String, String> markers,
                  Set<String> setupFailed) {

        Optional<String> marker(String name) {
            return Optional.ofNullable(markers.get(name));
        }
    }

    private final Duration timeout;

    WorkspaceProbe(Duration timeout) {
        this.timeout = timeout;
    }

    Result probe(CommandExecutor exec, Optional<String> knownRoot, List<String> repoDirs) {
        CommandResult result = exec.executeCommand(script(knownRoot, repoDirs), List.of(),
                CommandOptions.builder().timeout(timeout).maxRetainedBytes(1024 * 1024).build());
        if (result.timedOut()) {
            // Exit 124 and empty output would say nothing; the limit and the setting that raises it do.
            throw new SandboxException(StandardErrorCode.PROBE_FAILED, "Probing the sandbox workspace timed out after "
                    + DurationFormat.format(timeout) + "; the sandbox did not answer in time (timeouts.probe raises the limit).");
        }
        if (!result.success()) {
            throw new SandboxException(StandardErrorCode.PROBE_FAILED, "Probing the sandbox workspace failed (exit " + result.exitCode() + "): "
                    + (result.stderr().isBlank() ? result.stdout() : result.stderr()).strip());
        }
        return parse(result.stdout(), repoDirs.size());
    }

    static String script(Optional<String> knownRoot, List<String> repoDirs) {
        StringBuilder s = new StringBuilder();
        s.append("if v=$(git --version 2>/dev/null); then echo \"@@git=$v\"; else echo '@@git='; fi\n");
        s.append("root=").append(knownRoot.map(Sandboxes::quote).orElse("$(pwd)")).append('\n');
        s.append("echo \"@@root=$root\"\n");
        s.append("m=\"${root%/}/").append(SetupMarkers.DIRECTORY).append("\"\n");
        s.append("for f in ").append(SetupMarkers.SETUP).append(' ').append(SetupMarkers.WORKSPACE_SETUP);
        for (String dir : repoDirs) {
            s.append(' ').append(Sandboxes.quote(SetupMarkers.REPOS + "/" + dir));
        }
        s.append("; do [ -f \"$m/$f\" ] && echo \"@@marker.$f=$(head -n 1 \"$m/$f\")\"; done\n");
        s.append("[ -f \"$m/").append(SetupMarkers.SETUP_FAILED).append("\" ] && while IFS= read -r l; do echo \"@@failed=$l\"; done < \"$m/")
                .append(SetupMarkers.SETUP_FAILED).append("\"\n");
        for (int i = 0; i < repoDirs.size(); i++) {
            s.append("d=\"${root%/}/\"").append(Sandboxes.quote(repoDirs.get(i))).append('\n');
            s.append(CheckoutState.probeScript("d", "repo." + i));
        }
        s.append("exit 0\n");
        return s.toString();
    }

    static Result parse(String stdout, int repoCount) {
        Map<String, String> values = new HashMap<>();
        Map<String, String> markers = new HashMap<>();
        Set<String> failed = new LinkedHashSet<>();
        String root = null;
        for (String line : stdout.split("\n")) {
            if (!line.startsWith("@@") || line.indexOf('=') < 0) {
                continue;
            }
            String key = line.substring(2, line.indexOf('='));
            String value = line.substring(line.indexOf('=') + 1);
            if (key.equals("failed")) {
                if (!value.isBlank()) {
                    failed.add(value.strip());
                }
            } else if (key.startsWith("marker.")) {
                markers.put(key.substring("marker.".length()), value.strip());
            } else if (key.equals("root")) {
                root = value;
            } else {
                values.put(key, value);
            }
        }
        if (root == null || !root.startsWith("/")) {
            throw new SandboxException(StandardErrorCode.WORKDIR_UNKNOWN, "Could not determine the sandbox working directory: 'pwd' printed '"
                    + (root == null ? "" : root) + "', which is not an absolute path.");
        }
        List<CheckoutState> checkouts = new ArrayList<>();
        for (int i = 0; i < repoCount; i++) {
            checkouts.add(CheckoutState.parse(values, "repo." + i));
        }
        String git = values.getOrDefault("git", "").strip();
        return new Result(git.isEmpty() ? Optional.empty() : Optional.of(git), root, checkouts, markers, failed);
    }
}
