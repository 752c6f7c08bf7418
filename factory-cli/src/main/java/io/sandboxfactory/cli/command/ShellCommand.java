package io.sandboxfactory.cli.command;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.support.Sandboxes;
import io.sandboxfactory.cli.BadInputException;
import io.sandboxfactory.cli.FactoryCommand;
import io.sandboxfactory.cli.FactoryLauncher;
import io.sandboxfactory.cli.FactorySource;
import io.sandboxfactory.cli.output.Console;
import io.sandboxfactory.cli.session.StoredSessions;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.provider.docker.DockerProviderConfig;
import io.sandboxfactory.provider.local.LocalSandbox;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code factory shell}: a shell in the session's checkout with the environment its commands get.
 * Local sessions: {@code $SHELL} (else {@code sh}), inside the session's boundary when it is isolated; Docker sessions: {@code docker exec}
 * into the container, with a TTY when this process has a terminal. Without a terminal the shell
 * reads commands from stdin.
 */
@Command(mixinStandardHelpOptions = true, name = "shell",
        description = {"Open an interactive shell in the session's checkout, with the environment the session's commands get"
                + " (local: $SHELL or sh; docker: docker exec with a TTY when this is a terminal).",
                "With stdin not a terminal the shell reads its commands from stdin. Exits with the shell's exit code."},
        footerHeading = "%nExamples:%n",
        footer = {"  factory shell fix-42", "  echo 'git status' | factory shell fix-42"})
public final class ShellCommand implements Callable<Integer> {

    /** Variables of the captured environment that describe the capturing shell, not the session. */
    private static final Set<String> OF_THE_CAPTURE = Set.of("PWD", "OLDPWD", "SHLVL", "_");

    @ParentCommand
    FactoryCommand root;

    @Parameters(index = "0", paramLabel = "ID", description = "Session id.")
    String sessionId;

    @Override
    public Integer call() throws IOException, InterruptedException {
        Console console = root.console;
        try (FactorySource.Use use = console.factories().use(new FactoryLauncher(console, root.global), SessionListener.NONE)) {
            SandboxFactory factory = use.factory();
            SessionHandle handle = StoredSessions.resume(factory, sessionId);
            handle.awaitStarted();
            String checkout = handle.checkout().orElseThrow(() -> new IllegalStateException("Session '" + sessionId
                    + "' started but its checkout is unknown."));
            boolean terminal = System.console() != null;
            ProcessBuilder shell = switch (factory.providerName()) {
                case "local" -> local(handle, checkout, terminal, console);
                case "docker" -> docker(factory, handle, checkout, terminal, console);
                default -> throw new BadInputException("factory shell works with the local and docker providers, not '"
                        + factory.providerName() + "'; use 'factory exec " + sessionId + " -- CMD' there.");
            };
            handle.touch();
            Process process = shell.inheritIO().start();
            try {
                return process.waitFor();
            } finally {
                handle.touch();
            }
        }
    }

    /**
     * The caller's shell in the checkout, with exactly the environment a session command sees, where
     * the session's commands run: inside its boundary when the session is isolated, else on this host.
     *
     * <p>Inside the boundary the caller's terminal cannot be the shell's: its session and process
     * groups live outside the pid namespace (job control fails: "Cannot set tty process group"), and
     * a controlling terminal shared with the sandbox would let it push input into the caller's. So on
     * a terminal the shell gets a terminal of its own inside, relayed by {@code script(1)}.
     */
    private ProcessBuilder local(SessionHandle handle, String checkout, boolean terminal, Console console) {
        String program = console.environment().getOrDefault("SHELL", "");
        List<String> shell = List.of(program.isBlank() ? "sh" : program);
        if (handle.sandbox() instanceof LocalSandbox local) {
            // Started in the boundary's directory; the shell itself changes to the checkout.
            List<String> inCheckout = List.of("/bin/sh", "-c", "cd -- \"$0\" && exec \"$1\"", checkout, shell.get(0));
            shell = local.interactiveCommand(terminal ? List.of("script", "-qec", String.join(" ", inCheckout.stream().map(Sandboxes::quote).toList()), "/dev/null") : inCheckout);
        }
        ProcessBuilder builder = new ProcessBuilder(shell).directory(Path.of(checkout).toFile());
        builder.environment().clear();
        builder.environment().putAll(sessionEnvironment(handle, checkout));
        return builder;
    }

    /**
     * {@code docker exec} into the session's container. The session's own variables (the repository
     * token among them) reach it by name ({@code -e NAME}, the value taken from the docker client's
     * environment), never on the command line.
     */
    private ProcessBuilder docker(SandboxFactory factory, SessionHandle handle, String checkout, boolean terminal, Console console) {
        String container = handle.sandbox().sandboxId().orElseThrow(() -> new IllegalStateException("Session '" + sessionId
                + "' has no container id."));
        List<String> command = new ArrayList<>(List.of("docker", "exec", "-i"));
        if (terminal) {
            command.add("-t");
        }
        command.addAll(List.of("-w", checkout));
        Map<String, String> overlay = handle.sandbox().getEnv();
        for (String name : overlay.keySet()) {
            command.addAll(List.of("-e", name));
        }
        command.addAll(List.of(container, "sh"));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().clear();
        builder.environment().putAll(console.environment());
        builder.environment().putAll(overlay);
        factory.config().providerConfig("docker", DockerProviderConfig.class).filter(c -> !Boolean.TRUE.equals(c.useEnvironment()) && c.host() != null)
                .ifPresent(c -> builder.environment().put("DOCKER_HOST", c.host()));
        return builder;
    }

    /** What {@code env} prints inside the session: its base environment and its own variables. */
    private Map<String, String> sessionEnvironment(SessionHandle handle, String checkout) {
        CommandResult env = handle.sandbox().executeCommand("env", List.of("-0"), CommandOptions.builder().cwd(checkout)
                .timeout(Duration.ofMinutes(1)).build());
        if (env.exitCode() != 0) {
            throw new IllegalStateException("Could not read the environment of session '" + sessionId + "': exit " + env.exitCode() + ".");
        }
        Map<String, String> variables = new HashMap<>();
        for (String entry : env.stdout().split("\0")) {
            int eq = entry.indexOf('=');
            if (eq > 0 && !OF_THE_CAPTURE.contains(entry.substring(0, eq))) {
                variables.put(entry.substring(0, eq), entry.substring(eq + 1));
            }
        }
        return variables;
    }
}
