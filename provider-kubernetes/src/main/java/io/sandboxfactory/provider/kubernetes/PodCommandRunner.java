package io.sandboxfactory.provider.kubernetes;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.provider.support.ProviderClosedException;
import io.sandboxfactory.api.support.EnvironmentVariables;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.ContainerResource;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import io.sandboxfactory.provider.support.CommandDefaults;
import io.sandboxfactory.provider.support.CommandScripts;
import io.sandboxfactory.provider.support.RemoteCommands;
import io.sandboxfactory.api.CommandRequest;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.support.OutputCollector;
import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.SandboxExecTransportException;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * Runs commands in a session's pod through the API server's exec (a websocket, channels for
 * stdout, stderr and the status that carries the exit code), streaming the output to the caller.
 * The command's variables go over the exec's stdin, never on its command line, which every
 * process in the pod and the API server's audit log of the exec's URL show ({@link
 * CommandScripts#runCommandWithEnvironmentOnStdin}).
 *
 * <p>A timeout (or an interrupt of the calling thread) kills the command's processes inside the pod
 * with a second exec ({@link CommandScripts#killCommand}), then reports exit code 124 and {@code
 * timedOut}. Failures say whether the command may have run: a pod that is gone is a {@link
 * SandboxDestroyedException}; an exec the server refused (an HTTP status on the upgrade) or a
 * connection that could not be made is a {@link SandboxExecTransportException} with {@code
 * opened=false}; any failure after the exec was open is {@code opened=true}.
 *
 * @param connection the cluster connection of the sandbox's provider instance
 * @param defaults what every command here starts from
 */
record PodCommandRunner(ClusterConnection connection, CommandDefaults defaults) implements RemoteCommands<String> {

    private static final System.Logger LOG = System.getLogger(PodCommandRunner.class.getName());

    @Override
    public CommandResult run(String pod, CommandRequest request) {
        String cwd = defaults.cwd(request);
        String token = CommandScripts.newToken();
        Map<String, String> env = defaults.environment(request.env(), token, EnvironmentVariables::requireIdentifier);
        OutputCollector stdout = new OutputCollector(request.maxRetainedBytes(), request.onStdout());
        OutputCollector stderr = new OutputCollector(request.maxRetainedBytes(), request.onStderr());
        SignalFilter stderrFilter = new SignalFilter(sink(stderr), CommandScripts.missingDirectorySignal(token));
        long started = System.nanoTime();

        KubernetesClient client = client("run a command");
        CommandScripts.StdinExec command = CommandScripts.runCommandWithEnvironmentOnStdin(token, cwd, request.commandLine(), env);
        ExecWatch watch = open(client, pod, command.argv(), true, sink(stdout), stderrFilter);
        try {
            watch.getInput().write(command.stdin());
            watch.getInput().flush();
        } catch (IOException e) {
            // Part of the line may have arrived; the command runs only once all of it has, which cannot be told here.
            watch.close();
            throw lost(e);
        }
        boolean timedOut = false;
        int exitCode;
        try {
            exitCode = request.timeout().isPresent()
                    ? watch.exitCode().get(request.timeout().get().toNanos(), TimeUnit.NANOSECONDS)
                    : watch.exitCode().get();
        } catch (TimeoutException e) {
            timedOut = true;
            exitCode = CommandResult.TIMEOUT_EXIT_CODE;
            stopCommand(client, pod, token, watch);
        } catch (InterruptedException e) {
            stopCommand(client, pod, token, watch);
            Thread.currentThread().interrupt();
            throw new SandboxException(StandardErrorCode.INTERRUPTED, "Command in sandbox '" + sessionId()
                    + "' was interrupted; it was killed inside the pod.", e);
        } catch (ExecutionException e) {
            watch.close();
            throw lost(e.getCause());
        }
        watch.close();
        if (!timedOut && exitCode < 0) {
            throw new SandboxExecTransportException("The command in sandbox '" + sessionId() + "' ended without an exit status"
                    + " from pod '" + pod + "'; it may have run.", true, null);
        }
        if (!timedOut && stderrFilter.sawSignal()) {
            throw CommandRequest.cwdMissing(cwd, sessionId());
        }
        try {
            stderrFilter.finish();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        stdout.finish();
        stderr.finish();
        return new CommandResult(exitCode, stdout.text(), stderr.text(), Duration.ofNanos(System.nanoTime() - started),
                timedOut, stdout.truncated(), stderr.truncated(), request.commandLine());
    }

    /**
     * Opens an exec of {@code argv}, with a stdin ({@link ExecWatch#getInput}) when {@code withInput};
     * classifies a failure to open as described in the class comment.
     */
    private ExecWatch open(KubernetesClient client, String pod, List<String> argv, boolean withInput, OutputStream out,
                           OutputStream err) {
        try {
            ContainerResource container = container(client, pod);
            return (withInput ? container.redirectingInput() : container)
                    .writingOutput(out)
                    .writingError(err)
                    .exec(argv.toArray(String[]::new));
        } catch (RuntimeException e) {
            throw openFailure(pod, e);
        }
    }

    /**
     * Opens an exec in the sandbox's container of {@code pod} the way {@code open} says, with a
     * failure to open classified as for a command; {@code what} names the work for a closed provider's message.
     */
    ExecWatch exec(String pod, String what, Function<ContainerResource, ExecWatch> open) {
        ContainerResource container = container(client(what), pod);
        try {
            return open.apply(container);
        } catch (RuntimeException e) {
            throw openFailure(pod, e);
        }
    }

    private ContainerResource container(KubernetesClient client, String pod) {
        return client.pods().inNamespace(connection.namespace()).withName(pod).inContainer(SessionObjects.CONTAINER);
    }

    /** The session whose pod runs the commands. */
    String sessionId() {
        return defaults.sessionId();
    }

    private RuntimeException openFailure(String pod, RuntimeException e) {
        int code = KubernetesFailures.code(e);
        if (code == 404 || (code == 400 && KubernetesFailures.message(e).toLowerCase(java.util.Locale.ROOT).contains("not"))) {
            // 404: no such pod; 400: "container not found" / "pod is not running": the command cannot have started.
            return new SandboxDestroyedException("Sandbox '" + sessionId() + "' is gone: pod '" + pod + "' is deleted or not"
                    + " running (" + KubernetesFailures.message(e) + "); the next start makes it again.", e);
        }
        if (code > 0 || KubernetesFailures.isConnectFailure(e)) {
            return new SandboxExecTransportException("The API server via " + connection.describe() + " refused the command"
                    + " in sandbox '" + sessionId() + "' (" + (code > 0 ? "HTTP " + code + ": " : "")
                    + KubernetesFailures.message(e) + "); it did not run.", false, e);
        }
        return lost(e);
    }

    private SandboxExecTransportException lost(Throwable e) {
        return new SandboxExecTransportException("Lost the connection to the command in sandbox '" + sessionId()
                + "' via " + connection.describe() + "; it may have run: " + KubernetesFailures.message(e), true, e);
    }

    private void stopCommand(KubernetesClient client, String pod, String token, ExecWatch watch) {
        kill(client, pod, token);
        try {
            watch.exitCode().get(CommandScripts.DRAIN_AFTER_KILL.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.log(System.Logger.Level.WARNING, "A killed command in sandbox ''{0}'' did not end its exec within {1}; dropping it.",
                    sessionId(), CommandScripts.DRAIN_AFTER_KILL);
        } finally {
            watch.close();
        }
    }

    /** Kills every process of command {@code token} with an exec of its own; best effort. */
    void kill(KubernetesClient client, String pod, String token) {
        try (ExecWatch killer = open(client, pod, CommandScripts.killCommand(token), false, OutputStream.nullOutputStream(),
                OutputStream.nullOutputStream())) {
            killer.exitCode().get(CommandScripts.KILL_WAIT.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (SandboxDestroyedException gone) {
            // The pod went away and took the command with it.
        } catch (RuntimeException | ExecutionException | TimeoutException e) {
            LOG.log(System.Logger.Level.WARNING, "Could not kill a command in sandbox ''" + sessionId() + "'': " + e.getMessage(), e);
        }
    }

    private KubernetesClient client(String what) {
        try {
            return connection.client();
        } catch (ProviderClosedException closed) {
            throw new SandboxExecTransportException("Cannot " + what + " in sandbox '" + sessionId() + "': "
                    + closed.getMessage(), false, closed);
        }
    }

    private static OutputStream sink(OutputCollector collector) {
        return new OutputStream() {
            @Override
            public void write(int b) {
                collector.accept(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                collector.accept(b, off, len);
            }
        };
    }
}
