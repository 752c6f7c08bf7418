package io.sandboxfactory.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sandboxfactory.bench.stats.Samples;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReportWritersTest {

    private static BenchReport sample() {
        return new BenchReport()
                .machine("load average before", "1.00 2.00 3.00")
                .add(new Group("exec true", "raw", List.of(Samples.of("raw", 2, 2, 2), Samples.of("local", 3, 3, 3))))
                .add(new Curve("heap <by> sessions", "live sessions", "MB",
                        List.of(new Curve.Point(1, 10), new Curve.Point(10, 20), new Curve.Point(100, 40))))
                .figure("bytes per session", 1234.5)
                .note("Docker paths skipped: no engine answered.");
    }

    @Test
    void theTableGivesMedianP90AndTheRatioToTheBaseline() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new TableWriter(new PrintStream(bytes, true, StandardCharsets.UTF_8)).write(sample());
        String table = bytes.toString(StandardCharsets.UTF_8);

        assertThat(table).contains("| exec true | raw | 3 | 2.00 | 2.00 | baseline |")
                .contains("| exec true | local | 3 | 3.00 | 3.00 | 1.50 |")
                .contains("load average before: 1.00 2.00 3.00")
                .contains("- Docker paths skipped: no engine answered.");
    }

    @Test
    void theMarkdownSectionReplacesOnlyWhatIsBetweenTheMarkers(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("performance.md");
        Files.writeString(file, "# Performance\n\nprose before\n\n" + MarkdownSection.START + "\nan old table\n" + MarkdownSection.END
                + "\n\nprose after\n");

        new MarkdownSection(file).write(TableWriter.text(sample()));

        String text = Files.readString(file);
        assertThat(text).startsWith("# Performance\n\nprose before\n\n" + MarkdownSection.START + "\n- load average before: 1.00 2.00 3.00\n")
                .contains("| exec true | local | 3 | 3.00 | 3.00 | 1.50 |")
                .doesNotContain("an old table")
                .endsWith("- Docker paths skipped: no engine answered.\n" + MarkdownSection.END + "\n\nprose after\n");
    }

    @Test
    void aMarkdownFileWithoutTheMarkersIsRefusedAndLeftAlone(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("performance.md");
        Files.writeString(file, "# Performance\n" + MarkdownSection.END + "\n" + MarkdownSection.START + "\n");

        assertThatThrownBy(() -> new MarkdownSection(file).check()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has no '<!-- bench:start -->' line followed by an '<!-- bench:end -->' line");
        assertThatThrownBy(() -> new MarkdownSection(dir.resolve("missing.md")).check()).hasMessageContaining("does not exist");
        assertThatThrownBy(() -> new MarkdownSection(file).write("table")).isInstanceOf(IllegalArgumentException.class);
        assertThat(Files.readString(file)).isEqualTo("# Performance\n" + MarkdownSection.END + "\n" + MarkdownSection.START + "\n");
    }

    @Test
    void theJsonHoldsEveryPathsStatisticsAndTheCurvesGrowth(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bench.json");
        new JsonReport().write(sample(), file);
        JsonNode doc = new ObjectMapper().readTree(file.toFile());

        JsonNode local = doc.at("/groups/0/paths/1");
        assertThat(local.get("path").asText()).isEqualTo("local");
        assertThat(local.get("medianMillis").asDouble()).isEqualTo(3.0);
        assertThat(local.get("ratioToBaseline").asDouble()).isEqualTo(1.5);
        assertThat(local.get("millis")).hasSize(3);
        // 10 → 40 over 1 → 100: log(4) / log(100) ≈ 0.301
        assertThat(doc.at("/curves/0/growthExponent").asDouble()).isBetween(0.30, 0.31);
        assertThat(doc.at("/figures/bytes per session").asDouble()).isEqualTo(1234.5);
    }

    @Test
    void theChartIsWellFormedSvgWithAPanelPerCurveAndItsLinearReference(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bench.svg");
        new SvgChart().write(sample().curves(), file);

        var svg = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile()).getDocumentElement();
        assertThat(svg.getTagName()).isEqualTo("svg");
        assertThat(svg.getElementsByTagName("polyline").getLength()).isEqualTo(1);
        assertThat(svg.getElementsByTagName("circle").getLength()).isEqualTo(3);
        assertThat(svg.getElementsByTagName("line").getLength()).isEqualTo(1);
        assertThat(svg.getTextContent()).contains("heap <by> sessions");
    }

    @Test
    void growthExponentIsOneForLinearAndZeroForFlatCurves() {
        assertThat(new Curve("linear", "n", "ms", List.of(new Curve.Point(1, 3), new Curve.Point(1000, 3000))).growthExponent())
                .isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(new Curve("flat", "n", "ms", List.of(new Curve.Point(1, 3), new Curve.Point(1000, 3))).growthExponent()).isZero();
    }

    @Test
    void aBaselineThatIsNoPathAndPointsOutOfOrderAreRefused() {
        assertThatThrownBy(() -> new Group("g", "missing", List.of(Samples.of("raw", 1))))
                .hasMessageContaining("'missing'").hasMessageContaining("'g'");
        assertThatThrownBy(() -> new Curve("c", "n", "ms", List.of(new Curve.Point(10, 1), new Curve.Point(1, 1))))
                .hasMessageContaining("ascending");
    }
}
