package io.sandboxfactory.cli.daemon;

import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.core.session.SessionPhase;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

class ThreadRoutedListenerTest {

    /** Records what reaches it. */
    static final class Recording implements SessionListener {
        final List<String> seen = new CopyOnWriteArrayList<>();

        @Override
        public void onPhase(String sessionId, SessionPhase phase, String detail) {
            seen.add(sessionId + " " + phase);
        }

        @Override
        public void onOutput(String sessionId, SessionPhase phase, String chunk) {
            seen.add(sessionId + " out " + chunk);
        }
    }

    @Test
    void phasesFollowTheThreadAndOutputFromOtherThreadsFollowsTheSession() throws Exception {
        ThreadRoutedListener routed = new ThreadRoutedListener();
        Recording first = new Recording();
        Recording second = new Recording();
        Thread other = new Thread(() -> {
            routed.route(Thread.currentThread(), second);
            routed.onPhase("s2", SessionPhase.SETUP, "");
        });
        routed.route(Thread.currentThread(), first);
        routed.onPhase("s1", SessionPhase.CLONE, "");
        other.start();
        other.join();

        // A provider's reader thread, belonging to no command.
        Thread reader = new Thread(() -> {
            routed.onOutput("s1", SessionPhase.CLONE, "Cloning into");
            routed.onOutput("s2", SessionPhase.SETUP, "setup says hi");
            routed.onOutput("s3", SessionPhase.SETUP, "nobody's");
        });
        reader.start();
        reader.join();

        assertThat(first.seen).containsExactly("s1 CLONE", "s1 out Cloning into");
        assertThat(second.seen).containsExactly("s2 SETUP", "s2 out setup says hi");

        routed.unroute(Thread.currentThread());
        routed.onPhase("s1", SessionPhase.READY, "");
        Thread late = new Thread(() -> routed.onOutput("s1", SessionPhase.CLONE, "after the command ended"));
        late.start();
        late.join();
        assertThat(first.seen).as("nothing after the command unrouted").hasSize(2);
    }
}
