package io.sandboxfactory.core.docker;

import io.sandboxfactory.api.StartOutcome;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionSpec;

import java.nio.file.Path;
import java.util.Map;

/**
 * A separate JVM that builds its own {@link SandboxFactory} from a config file (provider {@code
 * docker}) and opens one session, then prints how its sandbox was acquired ({@code
 * outcome=CREATED} or {@code outcome=CONNECTED}) and its container id ({@code container=...}).
 * Args: config file, state directory, session id, repository, setup command.
 */
public final class OpenDockerSessionProcess {

    private OpenDockerSessionProcess() {
    }

    public static void main(String[] args) {
        try (SandboxFactory factory = SandboxFactory.builder().config(Path.of(args[0])).stateDirectory(Path.of(args[1]))
                .environment(Map.of()).build()) {
            SessionHandle handle = factory.openSession(SessionSpec.builder(args[2]).repository(args[3])
                    .branch(DockerSessionRig.BRANCH).setupCommands(args[4]).build());
            System.out.println("outcome=" + handle.sandbox().lastStartOutcome().map(StartOutcome::name).orElse("NONE"));
            System.out.println("container=" + handle.sandbox().sandboxId().orElse("NONE"));
        }
    }
}
