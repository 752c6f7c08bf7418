package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.capability.StreamingSandbox.SandboxStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Streams into a real container (the build runs it under runc and gVisor): bytes written reach the
 * program in order and whole, closing the input ends the program's input, and the output ends with
 * the program.
 */
@ExtendWith(RequiresDockerEngine.class)
class DockerStreamsIT {

    private DockerFixture fixture;
    private DockerSandbox sandbox;

    @BeforeEach
    void start() {
        fixture = new DockerFixture();
        sandbox = fixture.sandbox(fixture.factory(), fixture.sessionId("streams"));
        sandbox.start();
    }

    @AfterEach
    void cleanUp() {
        fixture.close();
    }

    @Test
    void whatIsWrittenComesBackWholeAndClosingTheInputEndsTheProgram() throws Exception {
        byte[] data = new byte[3 * 1024 * 1024 + 17];
        new Random(46).nextBytes(data);
        try (SandboxStream stream = sandbox.openStream(List.of("cat"))) {
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    for (int offset = 0; offset < data.length; offset += 65536) {
                        stream.input().write(data, offset, Math.min(65536, data.length - offset));
                    }
                    stream.input().close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            byte[] back = stream.output().readAllBytes();
            writer.get(1, TimeUnit.MINUTES);
            int at = java.util.Arrays.mismatch(back, data);
            assertThat(at).as("the first byte cat echoed wrong, of " + back.length + " echoed and " + data.length + " sent").isEqualTo(-1);
        }
    }

    @Test
    void theProgramRunsInTheSandboxAndItsOutputEndsWithIt() throws Exception {
        String inside = sandbox.executeCommand("cat /etc/hostname").stdout();
        try (SandboxStream stream = sandbox.openStream(List.of("sh", "-c", "cat /etc/hostname; echo done >&2"))) {
            stream.input().close();
            assertThat(new String(stream.output().readAllBytes())).as("stdout only").isEqualTo(inside);
        }
    }
}
