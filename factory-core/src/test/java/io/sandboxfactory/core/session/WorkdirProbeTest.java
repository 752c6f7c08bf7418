package io.sandboxfactory.core.session;

import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.core.testing.SessionHarness;
import io.sandboxfactory.core.testing.ShellSandboxes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A provider without a configured working directory is probed with pwd once; the answer is memoized on the entry. */
class WorkdirProbeTest {

    @TempDir
    Path tmp;

    @Test
    void theRootOfASandboxWithoutAWorkingDirectoryComesFromPwdAndIsMemoized() throws Exception {
        Path remote = Git.bareRepository(tmp.resolve("remote/tool.git"));
        Path shellRoot = tmp.resolve("shell");
        try (SessionHarness factory = new SessionHarness(tmp.resolve("state"), p -> new ShellSandboxes(shellRoot))) {
            SessionHandle handle = factory.open(SessionSpec.builder("p1").repository(remote.toString()).branch("work").build());
            String root = shellRoot.resolve("p1").toRealPath().toString();
            assertThat(handle.workdir()).contains(root);
            assertThat(handle.checkout()).contains(root + "/tool");
            assertThat(Git.run(Path.of(root, "tool"), "symbolic-ref", "--short", "HEAD")).isEqualTo("work");
            assertThat(factory.listener.commands().get(0)).contains("root=$(pwd)");
            assertThat(factory.store.find("p1").orElseThrow().workdir()).contains(root);

            // The same sandbox instance starts again: the memoized root is used, pwd is not asked again.
            handle.sandbox().stop();
            factory.listener.clear();
            handle.awaitStarted();
            List<String> commands = factory.listener.commands();
            assertThat(commands.get(0)).doesNotContain("$(pwd)").contains("root=" + root);
            factory.retire("p1", RetireMode.DESTROY);
        }
    }
}
