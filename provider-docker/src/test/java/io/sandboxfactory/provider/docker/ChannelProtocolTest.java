package io.sandboxfactory.provider.docker;

import io.sandboxfactory.provider.support.CommandScripts;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The request line and the server's trace of requests, with a real {@code /bin/sh} (no engine needed). */
class ChannelProtocolTest {

    @Test
    void everyWordArrivesVerbatimThroughEval() throws Exception {
        List<String> words = List.of("n", "/tmp/p.pid", "/work dir", "echo 'a'\n\"$HOME\" `x` \\ $(y) ;|&", "sig\n",
                "A=it's", "B=\r\t", "-C=", "D=ünïcode");
        byte[] line = ChannelProtocol.request(words.get(0), words.get(1), words.get(2), words.get(3), words.get(4),
                words.subList(5, words.size()));
        assertThat(line[line.length - 1]).isEqualTo((byte) '\n');
        assertThat(new String(line, 0, line.length - 1, StandardCharsets.UTF_8)).doesNotContain("\n");

        Process sh = new ProcessBuilder("/bin/sh", "-c", "_sf_nl='\n'\nIFS= read -r _sf_line\neval \"set -- $_sf_line\"\n"
                + "for w in \"$@\"; do printf '%s\\0' \"$w\"; done").start();
        sh.getOutputStream().write(line);
        sh.getOutputStream().close();
        String out = new String(sh.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(sh.waitFor()).isZero();
        assertThat(out.split("\0", -1)).containsExactlyElementsOf(concat(words, ""));
    }

    @Test
    void theServerTracesARequestBeforeRunningItAndAKilledServerLeavesTheTrace() throws Exception {
        String token = CommandScripts.newToken();
        Path directory = Path.of(ChannelProtocol.directory(token));
        Process server = new ProcessBuilder(ChannelProtocol.serverCommand(token)).start();
        try {
            InputStream out = server.getInputStream();
            assertThat(out.readNBytes(ChannelProtocol.ready().length)).isEqualTo(ChannelProtocol.ready());
            assertThat(ChannelProtocol.neverRead(list(directory), "n1")).as("before the first request").isTrue();

            // The command itself finds the trace of its request, and only that one.
            String pidFile = CommandScripts.pidFile(CommandScripts.newToken());
            server.getOutputStream().write(ChannelProtocol.request("n1", pidFile, "/", "ls -a " + directory, "sig", List.of()));
            server.getOutputStream().flush();
            byte[] end = ChannelProtocol.terminator("n1");
            byte[] reply = readUntil(out, concat(end, "0\n".getBytes(StandardCharsets.UTF_8)));
            String seen = new String(reply, 0, reply.length - end.length - 2, StandardCharsets.UTF_8);
            assertThat(seen.lines().filter(name -> name.endsWith(".taken"))).containsExactly("n1.taken");

            server.destroyForcibly().waitFor();
            Process listing = new ProcessBuilder("/bin/sh", "-c", ChannelProtocol.listDirectory(token)).start();
            String left = new String(listing.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(listing.waitFor()).isZero();
            assertThat(ChannelProtocol.neverRead(left, "n1")).isFalse();
            assertThat(ChannelProtocol.neverRead(left, "n2")).isTrue();
            assertThat(directory).doesNotExist();
        } finally {
            server.destroyForcibly();
        }
    }

    @Test
    void aServerThatEndsNormallyLeavesNoTrace() throws Exception {
        String token = CommandScripts.newToken();
        Process server = new ProcessBuilder(ChannelProtocol.serverCommand(token)).start();
        assertThat(server.getInputStream().readNBytes(ChannelProtocol.ready().length)).isEqualTo(ChannelProtocol.ready());
        server.getOutputStream().close();
        assertThat(server.waitFor()).isZero();
        assertThat(Path.of(ChannelProtocol.directory(token))).doesNotExist();
        assertThat(new ProcessBuilder("/bin/sh", "-c", ChannelProtocol.listDirectory(token)).start().waitFor()).isNotZero();
        assertThat(ChannelProtocol.neverRead("", "n1")).as("no trace proves nothing").isFalse();
    }

    @Test
    void aNulCannotBeSent() {
        assertThat(ChannelProtocol.sendable("a\0b")).isFalse();
        assertThatThrownBy(() -> ChannelProtocol.request("n", "p", "/", "a\0b", "s", List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** The names in {@code directory}, one a line, as {@code ls -a} prints them. */
    private static String list(Path directory) throws IOException {
        try (var names = Files.list(directory)) {
            return names.map(name -> name.getFileName() + "\n").collect(Collectors.joining());
        }
    }

    /** The bytes of {@code in} up to and including {@code suffix}. */
    private static byte[] readUntil(InputStream in, byte[] suffix) throws IOException {
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        while (true) {
            int b = in.read();
            assertThat(b).as("the server ended before %s", new String(suffix, StandardCharsets.UTF_8)).isNotNegative();
            read.write(b);
            byte[] sofar = read.toByteArray();
            if (sofar.length >= suffix.length
                    && Arrays.equals(sofar, sofar.length - suffix.length, sofar.length, suffix, 0, suffix.length)) {
                return sofar;
            }
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] joined = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, joined, a.length, b.length);
        return joined;
    }

    private static List<String> concat(List<String> words, String last) {
        List<String> all = new java.util.ArrayList<>(words);
        all.add(last);
        return all;
    }
}
