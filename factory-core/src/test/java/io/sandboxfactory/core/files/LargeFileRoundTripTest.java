package io.sandboxfactory.core.files;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A file half as large again as the heap (96 MiB through a JVM capped at 64 MiB) through the
 * generic path: it only passes if memory stays bounded by the chunk size, since the file cannot be
 * held whole, let alone as base64. Compares SHA-256 of the source, the copy in the sandbox and the
 * copy read back.
 */
class LargeFileRoundTripTest {

    static final long SIZE = 96L * 1024 * 1024;

    @TempDir
    Path tmp;

    @Test
    void aFileLargerThanTheHeapRoundTripsWithA64MegabyteHeap() throws Exception {
        Path source = randomFile(tmp.resolve("source.bin"), SIZE);
        Path result = tmp.resolve("result.bin");
        Path state = tmp.resolve("state");

        String output = runCapped(List.of("local", state.toString(), source.toString(), result.toString()));

        String expected = sha256(source);
        assertThat(output).contains("max heap ").contains("in sandbox: " + SIZE + " bytes").contains("sandbox sha256: " + expected);
        assertThat(sha256(result)).isEqualTo(expected);
    }

    /** Runs {@link LargeFileRoundTrip} with {@code -Xmx64m}; fails unless it exits 0. Returns its output. */
    static String runCapped(List<String> args) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new java.util.ArrayList<>(List.of(java, "-Xmx64m", "-XX:+ExitOnOutOfMemoryError", "-cp", classpath,
                LargeFileRoundTrip.class.getName()));
        command.addAll(args);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(10, TimeUnit.MINUTES)).isTrue();
        String text = new String(out, StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as("round trip output:%n%s", text).isZero();
        return text;
    }

    static Path randomFile(Path file, long size) throws IOException {
        SplittableRandom random = new SplittableRandom(42);
        byte[] buffer = new byte[1 << 20];
        try (OutputStream out = Files.newOutputStream(file)) {
            for (long written = 0; written < size; written += buffer.length) {
                for (int i = 0; i < buffer.length; i += 8) {
                    long value = random.nextLong();
                    for (int b = 0; b < 8; b++) {
                        buffer[i + b] = (byte) (value >>> (8 * b));
                    }
                }
                out.write(buffer, 0, (int) Math.min(buffer.length, size - written));
            }
        }
        return file;
    }

    static String sha256(Path file) throws IOException, NoSuchAlgorithmException {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        byte[] buffer = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                digest.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}
