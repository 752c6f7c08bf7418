package io.sandboxfactory.core.internal.channel;

/**
 * A session's way to the factory without a network: a program in its sandbox runs {@code sh
 * CLIENT HEADER...}, and the factory's {@link ChannelHandler} serves the connection. Either a
 * {@link HostChannel} (FIFOs in a host directory the sandbox sees) or a {@link BridgedChannel}
 * (FIFOs in the sandbox, bridged by streams of its provider); {@link SessionChannels} picks.
 */
public interface SessionChannel extends AutoCloseable {

    /** Where the client script is, as the sandbox sees it. */
    String client();

    /**
     * Whether the channel still serves its sandbox: false once closed, or once a bridged channel found
     * its sandbox gone (a new one, made for the session, needs a channel of its own).
     */
    boolean serving();

    /** Stops serving: a connection in progress is cut; a client then says nothing serves the channel. */
    @Override
    void close();
}
