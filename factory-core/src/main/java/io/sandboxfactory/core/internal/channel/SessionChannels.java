package io.sandboxfactory.core.internal.channel;

import io.sandboxfactory.api.CommandExecutor;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.capability.StreamingSandbox;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Opens a session's channel the way its sandbox can use it: a {@link HostChannel} when the sandbox
 * sees the channel's host directory and can open a FIFO there; else a {@link BridgedChannel} when
 * its provider offers streams ({@link StreamingSandbox}: a Kubernetes pod, a gVisor container, a
 * container made before the directory was given to it).
 */
public final class SessionChannels {

    private static final Logger LOG = LoggerFactory.getLogger(SessionChannels.class);

    private SessionChannels() {
    }

    /** Why a sandbox cannot have a channel, as a phrase that completes "…, but {reason}". */
    public static final class UnavailableException extends Exception {
        UnavailableException(String reason, Throwable cause) {
            super(reason, cause);
        }
    }

    /**
     * @param hostDirectory the channel's directory on this host, when the provider's sandboxes see
     *     host directories (made before the sandbox was); its name names the channel
     * @param name the channel's name when it is bridged (letters, digits, '-')
     * @param sandbox the session's sandbox, started
     * @param exec runs a command in it
     */
    public static SessionChannel open(Optional<Path> hostDirectory, String name, Object sandbox, CommandExecutor exec,
                                      ChannelHandler handler) throws UnavailableException {
        String hostReason = "it sees no host directory";
        if (hostDirectory.isPresent()) {
            HostChannel channel = openHost(hostDirectory.get(), handler);
            CommandResult seen = exec.executeCommand(channel.usableCheck(), List.of(),
                    CommandOptions.builder().timeout(Duration.ofMinutes(1)).maxRetainedBytes(4096).build());
            if (seen.exitCode() == 0) {
                return channel;
            }
            channel.close();
            hostReason = "it cannot open a FIFO of the channel's host directory (a sandbox made before the directory was given to"
                    + " it, or a runtime such as gVisor)";
        }
        if (!(sandbox instanceof StreamingSandbox streaming)) {
            throw new UnavailableException("the session's sandbox cannot reach the factory's channel: " + hostReason
                    + ", and its provider offers no streams (SandboxCapability.STREAMS)", null);
        }
        try {
            BridgedChannel channel = BridgedChannel.open(streaming, name, handler);
            LOG.debug("Channel {} is bridged through the sandbox's streams: {}.", name, hostReason);
            return channel;
        } catch (IOException | RuntimeException e) {
            throw new UnavailableException("the session's sandbox cannot reach the factory's channel: " + hostReason
                    + ", and a channel bridged through its streams failed: " + e.getMessage(), e);
        }
    }

    private static HostChannel openHost(Path directory, ChannelHandler handler) throws UnavailableException {
        try {
            return HostChannel.open(directory, handler);
        } catch (IOException e) {
            throw new UnavailableException("the factory could not make the channel's directory " + directory + ": " + e.getMessage(), e);
        }
    }
}
