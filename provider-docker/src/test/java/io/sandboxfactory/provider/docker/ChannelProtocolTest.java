package io.sandboxfactory.provider.docker;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The request line read back by a real {@code /bin/sh} the way the server reads it. */
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
    void aNulCannotBeSent() {
        assertThat(ChannelProtocol.sendable("a\0b")).isFalse();
        assertThatThrownBy(() -> ChannelProtocol.request("n", "p", "/", "a\0b", "s", List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static List<String> concat(List<String> words, String last) {
        List<String> all = new java.util.ArrayList<>(words);
        all.add(last);
        return all;
    }
}
