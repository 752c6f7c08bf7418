package io.sandboxfactory.core.internal.channel;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/** Serves one connection of a {@link SessionChannel}. */
@FunctionalInterface
public interface ChannelHandler {
    /**
     * @param header the client's header line (printable ASCII words separated by single spaces)
     * @param in what the client sends after the header; it may never end by itself (the factory holds
     *     the FIFO open), so the handler reads only what its protocol delimits
     * @param out to the client; its end of stream follows the handler's return
     */
    void serve(String header, InputStream in, OutputStream out) throws IOException;
}
