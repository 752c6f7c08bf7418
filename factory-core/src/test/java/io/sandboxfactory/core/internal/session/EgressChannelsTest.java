package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.CommandExecutor;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.core.egress.EgressProxy;
import io.sandboxfactory.core.egress.EgressResolver;
import io.sandboxfactory.core.egress.EgressSessions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Closing the egress channels lets each listener's command end before the close returns: a provider
 * kills an interrupted command on the command's own thread and waits for the kill to be reported,
 * and the provider itself closes right after (a Docker engine's connection pool shut under the kill).
 */
class EgressChannelsTest {

    @TempDir
    Path state;

    @Test
    void closeWaitsForTheListenersKillWithoutCuttingItShort() throws Exception {
        Listener listener = new Listener();
        try (EgressProxy proxy = new EgressProxy(new EgressSessions(), new EgressResolver(Map.of()), event -> { }, Clock.systemUTC(),
                Optional.empty())) {
            EgressChannels channels = new EgressChannels(state, proxy, true);
            channels.directoryFor("s1");
            channels.connect("s1", listener, listener);

            AtomicBoolean endedWhenCloseReturned = new AtomicBoolean();
            Thread closer = new Thread(() -> {
                channels.close();
                endedWhenCloseReturned.set(listener.ended.getCount() == 0);
            });
            closer.start();
            assertThat(listener.killing.await(1, TimeUnit.MINUTES)).as("the listener's command was interrupted").isTrue();
            listener.killReported.countDown();
            closer.join(TimeUnit.MINUTES.toMillis(1));

            assertThat(closer.isAlive()).isFalse();
            assertThat(listener.cutShort).as("a second interrupt cut the kill's wait short").isFalse();
            assertThat(endedWhenCloseReturned).as("the listener's command had ended when close returned").isTrue();
        }
    }

    /**
     * A sandbox whose channel check passes and whose listener listens until interrupted, then waits
     * for its kill to be reported, as a provider's command runner does.
     */
    private static final class Listener implements CommandExecutor {
        final CountDownLatch killing = new CountDownLatch(1);
        final CountDownLatch killReported = new CountDownLatch(1);
        final CountDownLatch ended = new CountDownLatch(1);
        volatile boolean cutShort;

        @Override
        public CommandResult executeCommand(String command, List<String> args, CommandOptions options) {
            if (args.isEmpty()) {
                return result(0); // the channel's usable check
            }
            options.onStdout().orElseThrow().accept("listening\n");
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException interrupted) {
                killing.countDown();
                try {
                    killReported.await();
                } catch (InterruptedException again) {
                    cutShort = true;
                }
            } finally {
                ended.countDown();
            }
            return result(143);
        }

        private static CommandResult result(int exitCode) {
            return new CommandResult(exitCode, "", "", Duration.ZERO, false, false, false, "sh");
        }
    }
}
