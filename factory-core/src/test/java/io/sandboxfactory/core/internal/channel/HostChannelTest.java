package io.sandboxfactory.core.internal.channel;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The channel whose FIFOs are in a host directory. */
class HostChannelTest extends ChannelContract {

    @Override
    SessionChannel open(ChannelHandler handler) throws IOException {
        return HostChannel.open(tmp.resolve("ch"), handler);
    }

    @Test
    void afterCloseOnlyTheClientIsLeft() throws Exception {
        SessionChannel channel = open(ECHO);
        channel.close();
        try (var files = Files.list(tmp.resolve("ch"))) {
            assertThat(files.toList()).containsExactly(Path.of(channel.client()));
        }
    }
}
