package io.sandboxfactory.core.testing;

import io.sandboxfactory.api.StartOutcome;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionSpec;

import java.nio.file.Path;

/**
 * A separate JVM that opens one session with the real machinery and prints how its sandbox was
 * acquired: {@code outcome=CREATED} or {@code outcome=CONNECTED}. Args: state directory,
 * repository, session id, setup command.
 */
public final class OpenSessionProcess {

    private OpenSessionProcess() {
    }

    public static void main(String[] args) {
        try (SessionHarness factory = new SessionHarness(Path.of(args[0]))) {
            SessionHandle handle = factory.open(SessionSpec.builder(args[2]).repository(args[1]).branch("work")
                    .setupCommands(args[3]).build());
            System.out.println("outcome=" + handle.sandbox().lastStartOutcome().map(StartOutcome::name).orElse("NONE"));
        }
    }
}
