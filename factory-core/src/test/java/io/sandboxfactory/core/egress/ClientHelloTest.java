package io.sandboxfactory.core.egress;

import org.junit.jupiter.api.Test;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class ClientHelloTest {

    @Test
    void readsTheServerNameOfARealClientHello() throws Exception {
        byte[] hello = clientHello("api.example.test");
        ClientHello.Result result = ClientHello.parse(hello, hello.length);
        assertThat(result.status()).isEqualTo(ClientHello.Status.COMPLETE);
        assertThat(result.serverName()).contains("api.example.test");
    }

    @Test
    void aHelloWithoutServerNameIsCompleteWithoutOne() throws Exception {
        byte[] hello = clientHello(null);
        ClientHello.Result result = ClientHello.parse(hello, hello.length);
        assertThat(result.status()).isEqualTo(ClientHello.Status.COMPLETE);
        assertThat(result.serverName()).isEmpty();
    }

    @Test
    void everyTruncationIsIncompleteNeverAName() throws Exception {
        byte[] hello = clientHello("api.example.test");
        for (int length = 0; length < hello.length; length++) {
            assertThat(ClientHello.parse(hello, length).status()).as("first %d bytes", length).isEqualTo(ClientHello.Status.INCOMPLETE);
        }
    }

    @Test
    void aHelloSplitOverTwoRecordsIsReassembled() throws Exception {
        byte[] hello = clientHello("api.example.test");
        int body = hello.length - 5;
        int first = body / 2;
        byte[] split = new byte[hello.length + 5];
        System.arraycopy(hello, 0, split, 0, 5 + first);
        split[3] = (byte) (first >> 8);
        split[4] = (byte) first;
        int second = body - first;
        split[5 + first] = 22;
        split[6 + first] = 3;
        split[7 + first] = 3;
        split[8 + first] = (byte) (second >> 8);
        split[9 + first] = (byte) second;
        System.arraycopy(hello, 5 + first, split, 10 + first, second);
        assertThat(ClientHello.parse(split, split.length).serverName()).contains("api.example.test");
    }

    @Test
    void plainTextIsMalformed() {
        byte[] text = "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes();
        assertThat(ClientHello.parse(text, text.length).status()).isEqualTo(ClientHello.Status.MALFORMED);
    }

    @Test
    void corruptedHellosNeverThrow() throws Exception {
        byte[] hello = clientHello("api.example.test");
        Random random = new Random(46);
        for (int round = 0; round < 5000; round++) {
            byte[] copy = Arrays.copyOf(hello, hello.length);
            for (int flips = 1 + random.nextInt(4); flips > 0; flips--) {
                copy[random.nextInt(copy.length)] = (byte) random.nextInt(256);
            }
            int length = random.nextInt(copy.length + 1);
            ClientHello.Result result = ClientHello.parse(copy, length);
            assertThat(result).isNotNull();
            result.serverName().ifPresent(name -> assertThat(name).isNotEmpty());
        }
    }

    /** The first flight of the JDK's own TLS client, with {@code serverName} as SNI (none when null). */
    static byte[] clientHello(String serverName) throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, null, null);
        SSLEngine engine = context.createSSLEngine();
        engine.setUseClientMode(true);
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setServerNames(serverName == null ? List.of() : List.of(new SNIHostName(serverName)));
        engine.setSSLParameters(parameters);
        ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.wrap(ByteBuffer.allocate(0), out);
        out.flip();
        byte[] bytes = new byte[out.remaining()];
        out.get(bytes);
        return bytes;
    }
}
