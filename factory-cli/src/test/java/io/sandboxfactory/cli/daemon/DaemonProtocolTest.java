package io.sandboxfactory.cli.daemon;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class DaemonProtocolTest {

    @Test
    void aRequestRoundTripsWithAwkwardStrings() throws Exception {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("EMPTY", "");
        env.put("MULTI", "line 1\nline 2 \u00e9\u4e2d");
        DaemonProtocol.Request request = new DaemonProtocol.Request(List.of("exec", "s1", "--", "printf", "%s\0?", "a b"), "/w d", env);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DaemonProtocol.writeRequest(new DataOutputStream(bytes), request);

        DaemonProtocol.Request read = DaemonProtocol.readRequest(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertThat(read).isEqualTo(request);
    }

    @Test
    void aPeerOfAnotherVersionIsNotReadAsARequest() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new DataOutputStream(bytes).writeInt(DaemonProtocol.MAGIC + 1);
        assertThat(DaemonProtocol.readRequest(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())))).isNull();
    }

    @Test
    void framesCarryOutputAndTheExitCodeInOrder() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        DaemonProtocol.writeFrame(out, DaemonProtocol.STARTED, new byte[0], 0, 0);
        byte[] text = "xhello".getBytes(StandardCharsets.UTF_8);
        DaemonProtocol.writeFrame(out, DaemonProtocol.STDOUT, text, 1, 5);
        DaemonProtocol.writeExit(out, 137);

        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
        assertThat(DaemonProtocol.readFrame(in).type()).isEqualTo(DaemonProtocol.STARTED);
        DaemonProtocol.Frame output = DaemonProtocol.readFrame(in);
        assertThat(output.type()).isEqualTo(DaemonProtocol.STDOUT);
        assertThat(new String(output.payload(), StandardCharsets.UTF_8)).isEqualTo("hello");
        DaemonProtocol.Frame exit = DaemonProtocol.readFrame(in);
        assertThat(exit.type()).isEqualTo(DaemonProtocol.EXIT);
        assertThat(exit.exitCode()).isEqualTo(137);
        assertThat(DaemonProtocol.readFrame(in)).as("end of stream").isNull();
    }
}
