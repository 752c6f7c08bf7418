package io.sandboxfactory.provider.support;

import io.sandboxfactory.api.CommandRequest;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.support.HostProcess;
import io.sandboxfactory.api.support.Sandboxes;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Ends what a killed host left running in a sandbox. Every command carries {@link
 * CommandScripts#HOST_VARIABLE}{@code =<host/pid/start[/stamp]>} (see {@link CommandScripts#markers}) in its
 * environment, which its descendants inherit; when a process connects to a sandbox that was
 * running, it lists the hosts whose processes are still there and kills those of every host that is
 * provably gone ({@link HostProcess#isProvablyGone()}) — never those of a live host, nor of a host on
 * another machine, which cannot be proven gone.
 */
public final class DeadHostReaper {

    private static final System.Logger LOG = System.getLogger(DeadHostReaper.class.getName());

    private static final String HOST_VARIABLE = CommandScripts.HOST_VARIABLE;

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static final String LIST_SCRIPT = "for e in /proc/[0-9]*/environ; do tr '\\0' '\\n' <\"$e\" 2>/dev/null; done"
            + " | grep '^" + HOST_VARIABLE + "=' | sort -u; exit 0";

    private static final String KILL_SCRIPT = String.join("\n",
            "for host in \"$@\"; do",
            CommandScripts.killMarked(HOST_VARIABLE, "$host"),
            "done",
            "exit 0");

    private DeadHostReaper() {
    }

    /**
     * Kills the processes in the sandbox of session {@code sessionId} that hosts now provably gone
     * started, running its two scripts through {@code exec} (the sandbox's own command path);
     * returns those hosts.
     */
    public static List<HostProcess> reap(String sessionId, Function<CommandRequest, CommandResult> exec) {
        CommandResult listed = exec.apply(request(LIST_SCRIPT));
        List<HostProcess> gone = listed.stdout().lines()
                .filter(line -> line.startsWith(HOST_VARIABLE + "="))
                .map(line -> HostProcess.parse(line.substring(HOST_VARIABLE.length() + 1)))
                .flatMap(Optional::stream)
                .filter(HostProcess::isProvablyGone)
                .toList();
        if (gone.isEmpty()) {
            return gone;
        }
        String hosts = gone.stream().map(host -> Sandboxes.quote(host.encoded())).collect(Collectors.joining(" "));
        exec.apply(request("set -- " + hosts + "\n" + KILL_SCRIPT));
        LOG.log(System.Logger.Level.WARNING, "Ended the commands that {0} host process(es) left running in the sandbox of"
                + " session ''{1}'' when they died: {2}.", gone.size(), sessionId,
                gone.stream().map(HostProcess::encoded).collect(Collectors.joining(", ")));
        return gone;
    }

    private static CommandRequest request(String script) {
        return new CommandRequest(script, Map.of(), Optional.of("/"), Optional.of(TIMEOUT), Optional.empty(), Optional.empty(),
                64 * 1024);
    }
}
