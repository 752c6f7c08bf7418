package io.sandboxfactory.api.capability;

import io.sandboxfactory.api.SandboxCapability;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Optional interactive attach a sandbox may offer (declare {@link SandboxCapability#ATTACH}): a
 * person's shell in the sandbox, on their own terminal. The sandbox does not run the shell itself:
 * it describes a process of this host ({@code docker exec -it}, {@code kubectl exec -it}, the
 * shell inside the local provider's boundary) that the caller starts with its stdin, stdout and
 * stderr inherited, so the terminal, its size and its signals reach the shell without a relay.
 *
 * <p>A secret (a repository token, a provider's variable) never goes on the command line, which
 * every user of the host can read: it goes into {@link Attach#environment()}, named where the host
 * program passes variables on ({@code docker exec -e NAME}), or into the sandbox itself where it
 * cannot (the kubernetes provider writes a file the shell reads and removes).
 *
 * @since 0.1.0
 */
public interface AttachableSandbox {

    /**
     * The host process that opens a shell in {@code request.directory()}, with the environment this
     * sandbox's commands get as far as the host program can pass it without a value on its command
     * line. The sandbox is running (the caller started it); nothing runs until the caller starts the
     * process, which exits with the shell's status.
     */
    Attach attach(Request request);

    /**
     * What the caller attaches from.
     *
     * @param directory the directory inside the sandbox the shell starts in
     * @param terminal whether the caller's stdin is a terminal: the shell then gets one
     * @param callerEnvironment the caller's own environment ({@code SHELL}, {@code PATH}, {@code
     *     HOME}, a client's settings), which a host program such as {@code docker} needs to run
     */
    record Request(String directory, boolean terminal, Map<String, String> callerEnvironment) {
        public Request {
            Objects.requireNonNull(directory, "directory");
            callerEnvironment = Map.copyOf(callerEnvironment);
        }
    }

    /**
     * A process of this host to start with the caller's stdio inherited.
     *
     * @param command the program and its arguments; never a secret
     * @param environment the process's whole environment (it replaces the caller's)
     * @param hostDirectory where the process starts on this host; empty: the caller's working directory
     */
    record Attach(List<String> command, Map<String, String> environment, Optional<Path> hostDirectory) {
        public Attach {
            command = List.copyOf(command);
            if (command.isEmpty()) {
                throw new IllegalArgumentException("An attach needs a program to run.");
            }
            environment = Map.copyOf(environment);
            Objects.requireNonNull(hostDirectory, "hostDirectory");
        }
    }
}
