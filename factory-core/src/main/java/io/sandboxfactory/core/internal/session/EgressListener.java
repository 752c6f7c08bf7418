package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.CommandExecutor;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.error.StandardErrorCode;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The listener a sandbox without a route runs on {@code 127.0.0.1:}{@value #PORT} (in its own network
 * namespace, so no other sandbox's): each TCP connection becomes a connection of the session's
 * egress channel, by running the channel's client on it — with perl, else socat. (busybox {@code nc
 * -e} is not used: it cannot listen on 127.0.0.1 only; the stall once seen with it was the client's
 * {@code cat}, see {@code ChannelFiles}.) The listener is a command of the sandbox that never ends by
 * itself, so it ends as the sandbox's commands do: with a stop, and with the factory process that
 * started it. None of the tools in the sandbox fails the start with one sentence: a proxy variable
 * that led nowhere would only look like a network failure.
 */
final class EgressListener {

    /** Where the sandbox's proxy variables point. */
    static final int PORT = 3128;
    private static final int NO_TOOL = 3;
    private static final int IN_USE = 4;
    private static final String LISTENING = "listening";

    static final String SCRIPT = """
            client=$1 port=$2
            if command -v perl >/dev/null 2>&1; then
              exec perl -MIO::Socket::INET -e '
                my ($port, $client) = @ARGV;
                my $server = IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => $port, Listen => 64, ReuseAddr => 1);
                unless ($server) { print STDERR "listen on 127.0.0.1:$port: $!\\n"; exit($!{EADDRINUSE} ? 4 : 5) }
                $| = 1;
                print "listening\\n";
                $SIG{CHLD} = "IGNORE";
                while (1) {
                  my $c = $server->accept or next;
                  if (!fork) { close $server; open(STDIN, "<&", $c); open(STDOUT, ">&", $c); exec("sh", $client, "egress"); exit 1 }
                  close $c;
                }' "$port" "$client"
            elif command -v socat >/dev/null 2>&1; then
              echo listening
              exec socat "TCP-LISTEN:$port,bind=127.0.0.1,reuseaddr,fork" "EXEC:sh $client egress"
            fi
            exit 3
            """;

    private EgressListener() {
    }

    /**
     * Starts the listener in the sandbox {@code exec} runs in, on a thread of {@code threads}, and
     * returns once it listens (or another already does). The future ends with the command.
     */
    static Future<CommandResult> start(String sessionId, CommandExecutor exec, String client, ExecutorService threads) {
        // True once the listener says it listens, false when its command ended first.
        CompletableFuture<Boolean> listening = new CompletableFuture<>();
        CommandOptions options = CommandOptions.builder().maxRetainedBytes(4096).onStdout(chunk -> {
            if (chunk.contains(LISTENING)) {
                listening.complete(true);
            }
        }).build();
        Future<CommandResult> command = threads.submit(() -> {
            try {
                return exec.executeCommand("sh", List.of("-c", SCRIPT, "sh", client, Integer.toString(PORT)), options);
            } finally {
                listening.complete(false);
            }
        });
        boolean up;
        try {
            up = listening.get(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            command.cancel(true);
            Thread.currentThread().interrupt();
            throw new SandboxException(StandardErrorCode.INTERRUPTED, "Interrupted while session '" + sessionId
                    + "' started its egress listener.");
        } catch (ExecutionException | TimeoutException e) {
            command.cancel(true);
            throw failed(sessionId, "it did not listen within a minute");
        }
        if (!up) {
            ended(sessionId, command);
        }
        return command;
    }

    /** A listener command that ended at once: fine when another listener already serves the port, else why not. */
    private static void ended(String sessionId, Future<CommandResult> command) {
        CommandResult result;
        try {
            result = command.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failed(sessionId, "interrupted");
        } catch (ExecutionException e) {
            throw failed(sessionId, e.getCause().getMessage());
        }
        if (result.exitCode() == IN_USE) {
            // A listener of an earlier start (or another process of this factory) serves the port: it runs the channel's client too.
            return;
        }
        if (result.exitCode() == NO_TOOL) {
            throw new SandboxException(StandardErrorCode.START_FAILED, "Session '" + sessionId + "' cannot reach the egress proxy (egress.mode"
                    + " allowlist): its sandbox has neither perl nor socat to listen on 127.0.0.1:" + PORT
                    + " for the factory's channel; add one to its image, or set egress.mode to open or none.");
        }
        throw failed(sessionId, "exit " + result.exitCode() + ": " + result.stderr().strip());
    }

    private static SandboxException failed(String sessionId, String why) {
        return new SandboxException(StandardErrorCode.START_FAILED, "Session '" + sessionId + "' cannot reach the egress proxy: its"
                + " listener on 127.0.0.1:" + PORT + " did not start (" + why + ").");
    }
}
