package io.sandboxfactory.bench.local;

import io.sandboxfactory.bench.stats.Interleaved;
import io.sandboxfactory.bench.stats.Samples;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ExecLoopTest {

    @TempDir
    Path temp;

    @Test
    void everyPathRunsEveryRoundAndTheSandboxesAreDestroyedAfter() throws Exception {
        List<Samples> samples = ExecLoop.measure(temp, new Interleaved(3, 1));

        assertThat(samples).extracting(Samples::name).startsWith(ExecLoop.RAW_SHELL, ExecLoop.RAW_TRUE, ExecLoop.NONE);
        // The isolated path where bubblewrap works here.
        assertThat(samples.size() == 3 || samples.get(3).name().equals(ExecLoop.NAMESPACES)).isTrue();
        assertThat(samples).allSatisfy(s -> assertThat(s.count()).isEqualTo(3));
        assertThat(temp.resolve("none/sessions/loop")).doesNotExist();
        assertThat(temp.resolve("namespaces/sessions/loop")).doesNotExist();
    }
}
