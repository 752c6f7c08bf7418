package io.sandboxfactory.bench.egress;

import io.sandboxfactory.bench.report.Group;
import io.sandboxfactory.bench.stats.Interleaved;
import io.sandboxfactory.bench.stats.Samples;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The bench's egress row times real HTTPS requests both ways (each round checks its response). */
class EgressOverheadTest {

    @TempDir
    Path tmp;

    @Test
    void bothPathsCompleteARequestEveryRound() throws Exception {
        try (EgressOverhead egress = EgressOverhead.start(tmp)) {
            Group group = egress.measure(new Interleaved(3, 1));
            assertThat(group.baseline()).isEqualTo("direct");
            assertThat(group.samples()).extracting(Samples::name).containsExactly("direct", "egress proxy");
            assertThat(group.samples()).allSatisfy(s -> assertThat(s.median()).isPositive());
        }
    }
}
