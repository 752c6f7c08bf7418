package io.sandboxfactory.bench.stats;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SamplesTest {

    @Test
    void medianOfAnOddCountIsTheMiddleOneAndOfAnEvenCountTheMeanOfTheMiddleTwo() {
        assertThat(Samples.of("odd", 5, 1, 3).median()).isEqualTo(3);
        assertThat(Samples.of("even", 4, 1, 3, 2).median()).isEqualTo(2.5);
    }

    @Test
    void percentilesAreNearestRank() {
        double[] values = new double[20];
        for (int i = 0; i < values.length; i++) {
            values[i] = 20 - i; // 20..1, unsorted on purpose
        }
        Samples samples = new Samples("twenty", values);
        assertThat(samples.percentile(90)).isEqualTo(18);
        assertThat(samples.percentile(10)).isEqualTo(2);
        assertThat(samples.percentile(100)).isEqualTo(20);
        assertThat(samples.percentile(0)).isEqualTo(1);
    }

    @Test
    void emptySamplesAndPercentilesOutOfRangeAreRefused() {
        assertThatThrownBy(() -> new Samples("none", new double[0])).hasMessageContaining("'none'").hasMessageContaining("empty");
        assertThatThrownBy(() -> Samples.of("x", 1).percentile(101)).hasMessageContaining("101");
    }

    @Test
    void interleavedRoundsAlternateTheOrderAndDropTheWarmUp() throws Exception {
        List<String> order = new ArrayList<>();
        List<Contender> contenders = List.of(
                Contender.of("a", () -> order.add("a"), () -> order.add("a-after")),
                Contender.of("b", () -> order.add("b")));
        List<Samples> samples = new Interleaved(3, 1).run(contenders);

        assertThat(order).containsExactly(
                "b", "a", "a-after",        // warm-up round -1: reversed
                "a", "a-after", "b",        // round 0
                "b", "a", "a-after",        // round 1
                "a", "a-after", "b");       // round 2
        assertThat(samples).extracting(Samples::name).containsExactly("a", "b");
        assertThat(samples).allSatisfy(s -> assertThat(s.count()).isEqualTo(3));
    }
}
