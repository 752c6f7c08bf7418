package io.sandboxfactory.api;

import io.sandboxfactory.api.support.Sandboxes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Shell quoting, checked against a real shell. */
class SandboxesTest {

    @ParameterizedTest
    @ValueSource(strings = {"abc", "ABC_123", "a-b_c.d/e=f:g@h", "--flag=value", "/usr/bin/env", "v1.2.3", "user@host:path"})
    void safeArgumentsStayBare(String arg) {
        assertThat(Sandboxes.quote(arg)).isEqualTo(arg);
    }

    @Test
    void everythingElseIsSingleQuoted() {
        assertThat(Sandboxes.quote("")).isEqualTo("''");
        assertThat(Sandboxes.quote("a b")).isEqualTo("'a b'");
        assertThat(Sandboxes.quote("$HOME")).isEqualTo("'$HOME'");
        assertThat(Sandboxes.quote("*")).isEqualTo("'*'");
        assertThat(Sandboxes.quote("~")).isEqualTo("'~'");
        assertThat(Sandboxes.quote("a\nb")).isEqualTo("'a\nb'");
        assertThat(Sandboxes.quote("it's")).isEqualTo("'it'\\''s'");
        assertThat(Sandboxes.quote("'")).isEqualTo("''\\'''");
        assertThat(Sandboxes.quote("é")).isEqualTo("'é'");
    }

    @Test
    void joinQuotesEachArgumentButNotTheCommand() {
        assertThat(Sandboxes.join("git log --format='%H'", List.of("a b", "c", ""))).isEqualTo("git log --format='%H' 'a b' c ''");
        assertThat(Sandboxes.join("ls", List.of())).isEqualTo("ls");
    }

    @Test
    void awkwardArgumentsReachARealShellVerbatim(@TempDir Path dir) throws Exception {
        // Files a stray glob would expand to, so unquoted '*' cannot pass unnoticed.
        Files.writeString(dir.resolve("file-one"), "");
        Files.writeString(dir.resolve("file-two"), "");
        List<String> args = List.of(
                "two words", "it's", "say \"hi\"", "$HOME", "${PATH}", "`id`", "$(id)", "line\nbreak", "tab\there",
                "日本語 ü ☃ 𝄞", "", "'", "''", "*", "file-*", "~", "back\\slash", "semi;colon", "a|b", "a&b",
                "<in>", "#hash", "!bang", "trailing space ", "-n", "--", "%s", "\\0");

        List<String> received = runPrintf(dir, args);

        assertThat(received).containsExactlyElementsOf(args);
    }

    /**
     * Runs {@code printf '%s\0'} with the joined arguments through {@code /bin/sh -c} and splits what
     * it printed at the NUL bytes.
     */
    private static List<String> runPrintf(Path dir, List<String> args) throws IOException, InterruptedException {
        String line = Sandboxes.join("printf '%s\\0'", args);
        ProcessBuilder builder;
        byte[] stdin;
        if (Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8")).newEncoder().canEncode(line)) {
            builder = new ProcessBuilder("/bin/sh", "-c", line);
            stdin = new byte[0];
        } else {
            // The JVM would mangle non-ASCII text in argv under a non-UTF-8 locale; hand the same
            // line to the shell on stdin instead, which it parses the same way.
            builder = new ProcessBuilder("/bin/sh", "-s");
            stdin = (line + "\n").getBytes(StandardCharsets.UTF_8);
        }
        builder.directory(dir.toFile()).redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().put("HOME", "/home/expanded");
        Process process = builder.start();
        try (OutputStream in = process.getOutputStream()) {
            in.write(stdin);
        }
        byte[] out;
        try (InputStream stdout = process.getInputStream()) {
            out = stdout.readAllBytes();
        }
        assertThat(process.waitFor(Waits.SECONDS, TimeUnit.SECONDS)).as("the shell exited").isTrue();
        assertThat(process.exitValue()).isZero();
        return splitAtNul(out);
    }

    private static List<String> splitAtNul(byte[] bytes) {
        List<String> parts = new ArrayList<>();
        ByteArrayOutputStream part = new ByteArrayOutputStream();
        for (byte b : bytes) {
            if (b == 0) {
                parts.add(part.toString(StandardCharsets.UTF_8));
                part.reset();
            } else {
                part.write(b);
            }
        }
        assertThat(part.size()).as("output after the last NUL: %s", Arrays.toString(part.toByteArray())).isZero();
        return parts;
    }
}
