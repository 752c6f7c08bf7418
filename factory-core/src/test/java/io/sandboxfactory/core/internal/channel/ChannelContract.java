package io.sandboxfactory.core.internal.channel;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every {@link SessionChannel} does, with its real client script run by {@code sh} as a sandbox
 * runs it: {@link HostChannelTest} (FIFOs on the host) and {@link BridgedChannelTest} (FIFOs bridged
 * through a sandbox's streams).
 */
abstract class ChannelContract {

    @TempDir
    Path tmp;

    /** Opens a channel of the kind under test, served by {@code handler}. */
    abstract SessionChannel open(ChannelHandler handler) throws IOException;

    /** Answers {@code <header>:<first line of input>} and reads nothing more. */
    static final ChannelHandler ECHO = (header, in, out) -> {
        out.write((header + ":" + readLine(in) + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    };

    @Test
    void aClientGetsTheHandlersAnswerToItsHeaderAndInput() throws Exception {
        try (SessionChannel channel = open(ECHO)) {
            assertThat(client(channel, "hello\n", "git", "git-upload-pack", "0")).isEqualTo("git git-upload-pack 0:hello\n");
        }
    }

    @Test
    void whatAClientLeftUnreadNeverReachesTheNextConnection() throws Exception {
        try (SessionChannel channel = open(ECHO)) {
            for (int i = 0; i < HostChannel.SLOTS * 3; i++) {
                // Every client sends a second line the handler never reads.
                assertThat(client(channel, "line-" + i + "\nleft over " + i + "\n", "n" + i)).isEqualTo("n" + i + ":line-" + i + "\n");
            }
        }
    }

    /**
     * Repeated: eight clients spinning on four slots' locks while each holder releases its own is the
     * race in which a plain remove took another client's fresh lock (two clients on one slot read
     * each other's answers; about one run in ten failed before the client moved pid files instead).
     */
    @RepeatedTest(10)
    void moreClientsThanSlotsWaitForAFreeSlotAndAreAllServed() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger inside = new AtomicInteger();
        CountDownLatch full = new CountDownLatch(HostChannel.SLOTS);
        ChannelHandler held = (header, in, out) -> {
            String line = readLine(in);
            inside.incrementAndGet();
            full.countDown();
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            out.write((header + ":" + line + "\n").getBytes(StandardCharsets.UTF_8));
        };
        try (SessionChannel channel = open(held)) {
            List<Process> clients = new ArrayList<>();
            for (int i = 0; i < HostChannel.SLOTS * 2; i++) {
                clients.add(start(channel, "c" + i));
                clients.get(i).getOutputStream().write(("in-" + i + "\n").getBytes(StandardCharsets.UTF_8));
                clients.get(i).getOutputStream().close();
            }
            assertThat(full.await(60, TimeUnit.SECONDS)).as("every slot took a client").isTrue();
            assertThat(inside.get()).isEqualTo(HostChannel.SLOTS);
            release.countDown();
            for (int i = 0; i < clients.size(); i++) {
                String output = new String(clients.get(i).getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(output).as(new String(clients.get(i).getErrorStream().readAllBytes(), StandardCharsets.UTF_8))
                        .isEqualTo("c" + i + ":in-" + i + "\n");
                assertThat(clients.get(i).waitFor(60, TimeUnit.SECONDS)).isTrue();
            }
        }
    }

    @Test
    void aHeaderThatIsNotPrintableWordsIsRefusedWithoutReachingTheHandler() throws Exception {
        AtomicInteger served = new AtomicInteger();
        try (SessionChannel channel = open((header, in, out) -> served.incrementAndGet())) {
            assertThat(client(channel, "", "two  spaces")).contains("sandbox-factory channel: header is not printable words");
            assertThat(client(channel, "", "x".repeat(ChannelHeader.MAX + 1))).contains("header longer than");
            assertThat(served).hasValue(0);
        }
    }

    @Test
    void afterCloseAClientSaysNothingServesTheChannel() throws Exception {
        SessionChannel channel = open(ECHO);
        channel.close();
        awaitClosed(channel);
        Process late = start(channel, "late");
        late.getOutputStream().close();
        assertThat(late.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(late.exitValue()).isNotZero();
        assertThat(new String(late.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)).contains("nothing serves");
    }

    /** Waits until a closed channel has removed its FIFOs (a bridged channel does so in the background). */
    void awaitClosed(SessionChannel channel) throws InterruptedException {
    }

    String client(SessionChannel channel, String input, String... header) throws IOException, InterruptedException {
        Process process = start(channel, header);
        try (OutputStream stdin = process.getOutputStream()) {
            stdin.write(input.getBytes(StandardCharsets.UTF_8));
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return output;
    }

    Process start(SessionChannel channel, String... header) throws IOException {
        List<String> command = new ArrayList<>(List.of("sh", channel.client()));
        command.addAll(List.of(header));
        ProcessBuilder builder = new ProcessBuilder(command);
        // Each test its own lock directories, as each sandbox has its own temporary directory.
        Path locks = tmp.resolve("locks");
        Files.createDirectories(locks);
        builder.environment().putAll(Map.of("TMPDIR", locks.toString()));
        return builder.start();
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0 && b != '\n') {
            line.append((char) b);
        }
        return line.toString();
    }
}
