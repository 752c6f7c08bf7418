package io.sandboxfactory.core.files;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Parsing what the scripts print: listings (names may hold newlines) and streamed base64. */
class ShellOutputParsingTest {

    @Test
    void parsesListingsWithAwkwardNamesAndSkipsEntriesThatVanished() {
        String out = "b\0new\nline\0gone\0-x\0\0"
                + "81a4 5 1000000000 b\n"
                + "41ed 4096 1000000001 new\nline\n"
                + "a1ff 3 1000000002 -x\n";
        var entries = FileCommands.parseListing(out);
        assertThat(entries).extracting(FileInfo::name).containsExactly("-x", "b", "new\nline");
        assertThat(entries).extracting(FileInfo::type).containsExactly(FileType.SYMLINK, FileType.FILE, FileType.DIRECTORY);
        assertThat(entries.get(1).size()).isEqualTo(5);
        assertThat(entries.get(1).permissions()).isEqualTo(0644);
        assertThat(entries.get(2).modified().getEpochSecond()).isEqualTo(1000000001L);
        assertThat(FileCommands.parseListing("")).isEmpty();
    }

    @Test
    void decodesBase64InArbitraryChunks() throws IOException {
        byte[] content = new byte[200_000];
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) (i * 7);
        }
        String encoded = Base64.getMimeEncoder().encodeToString(content);
        String stream = content.length + "\n" + encoded + "\n";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Base64Sink sink = new Base64Sink(out);
        for (int at = 0, step = 1; at < stream.length(); at += step, step = step % 4097 + 13) {
            sink.accept(stream.substring(at, Math.min(stream.length(), at + step)));
        }
        assertThat(sink.finish()).isEqualTo(content.length);
        assertThat(out.toByteArray()).isEqualTo(content);
    }

    @Test
    void refusesShortOrMalformedOutput() {
        Base64Sink shorter = new Base64Sink(new ByteArrayOutputStream());
        shorter.accept("10\n" + Base64.getEncoder().encodeToString(new byte[6]));
        assertThatThrownBy(shorter::finish).isInstanceOf(IllegalStateException.class).hasMessageContaining("announced 10 bytes but sent 6");

        Base64Sink noHeader = new Base64Sink(new ByteArrayOutputStream());
        noHeader.accept("123");
        assertThatThrownBy(noHeader::finish).isInstanceOf(IllegalStateException.class).hasMessageContaining("size line");
    }

    @Test
    void keepsTheOutputStreamsFailureForTheCaller() {
        OutputStream broken = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("disk full");
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                throw new IOException("disk full");
            }
        };
        Base64Sink sink = new Base64Sink(broken);
        sink.accept("3\n" + Base64.getEncoder().encodeToString(new byte[3]));
        assertThatThrownBy(sink::finish).isInstanceOf(IOException.class).hasMessage("disk full");
    }
}
