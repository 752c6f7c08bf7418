package io.sandboxfactory.cli.session;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class FileSliceTest {

    @Test
    void aTextFileIsSlicedByLines() {
        byte[] text = "one\ntwo\nthree\nfour".getBytes(StandardCharsets.UTF_8);
        assertThat(FileSlice.of(text, 0, Optional.empty())).containsEntry("content", "one\ntwo\nthree\nfour")
                .containsEntry("totalLines", 4).containsEntry("truncated", false).containsEntry("encoding", "utf-8");
        assertThat(FileSlice.of(text, 1, Optional.of(2L))).containsEntry("content", "two\nthree\n").containsEntry("offset", 1)
                .containsEntry("lines", 2).containsEntry("truncated", true);
        assertThat(FileSlice.of(text, 9, Optional.empty())).containsEntry("content", "").containsEntry("offset", 4);
        assertThat(FileSlice.of("a\nb\n".getBytes(StandardCharsets.UTF_8), 0, Optional.empty())).containsEntry("totalLines", 2);
        assertThat(FileSlice.of(new byte[0], 0, Optional.empty())).containsEntry("content", "").containsEntry("totalLines", 0);
    }

    @Test
    void anythingButUtf8WithoutNulBytesIsBase64ByBytes() {
        byte[] latin1 = "caf\u00e9".getBytes(StandardCharsets.ISO_8859_1);
        Map<String, Object> slice = FileSlice.of(latin1, 1, Optional.of(2L));
        assertThat(slice).containsEntry("encoding", "base64").containsEntry("totalBytes", 4).containsEntry("truncated", true);
        assertThat(Base64.getDecoder().decode((String) slice.get("content"))).containsExactly('a', 'f');
        assertThat(FileSlice.text(new byte[] {'a', 0, 'b'})).isEmpty();
        assertThat(FileSlice.text("h\u00e9".getBytes(StandardCharsets.UTF_8))).contains("h\u00e9");
    }
}
