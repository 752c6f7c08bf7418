package io.sandboxfactory.provider.local;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class RecordSparesTest {

    @TempDir
    Path records;

    @Test
    void aFinishedRecordBecomesTheSpareTheNextRecordIsWrittenInto() throws Exception {
        RecordSpares spares = new RecordSpares();
        Path record = Files.writeString(records.resolve("100"), "leaderStartStamp=b:1\n");

        spares.keep(record);

        assertThat(record).doesNotExist();
        Path spare = spares.take().orElseThrow();
        assertThat(spare).isEqualTo(records.resolve("100" + RecordSpares.SUFFIX)).hasContent("leaderStartStamp=b:1\n");
        assertThat(spares.take()).isEmpty();
    }

    @Test
    void atMostFourAreKeptAndTheRestDeleted() throws Exception {
        RecordSpares spares = new RecordSpares();
        for (int pid = 1; pid <= 6; pid++) {
            spares.keep(Files.writeString(records.resolve(Integer.toString(pid)), "r"));
        }

        try (var left = Files.list(records)) {
            assertThat(left.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("1.spare", "2.spare", "3.spare", "4.spare");
        }
    }

    @Test
    void aSpareOfThatNameLeftByAnotherInstanceIsNeverReplaced() throws Exception {
        Files.writeString(records.resolve("100" + RecordSpares.SUFFIX), "another instance's");
        RecordSpares spares = new RecordSpares();

        spares.keep(Files.writeString(records.resolve("100"), "mine"));

        assertThat(records.resolve("100")).doesNotExist();
        assertThat(records.resolve("100" + RecordSpares.SUFFIX)).hasContent("another instance's");
        assertThat(spares.take()).isEmpty();
    }

    @Test
    void anOverwrittenSpareHoldsExactlyTheNewRecordAndAMissingOneIsMade() throws Exception {
        Path spare = Files.writeString(records.resolve("100" + RecordSpares.SUFFIX), "leaderStartStamp=a-longer-old-record\nhost=h\n");

        RecordSpares.overwrite(spare, "short\n".getBytes(StandardCharsets.UTF_8));
        RecordSpares.overwrite(records.resolve("200" + RecordSpares.SUFFIX), "made\n".getBytes(StandardCharsets.UTF_8));

        assertThat(spare).hasContent("short\n");
        assertThat(records.resolve("200" + RecordSpares.SUFFIX)).hasContent("made\n");
    }

    @Test
    void aRecordReapedBeforeItWasKeptIsNoSpare() throws Exception {
        RecordSpares spares = new RecordSpares();

        spares.keep(records.resolve("100"));

        assertThat(spares.take()).isEmpty();
    }
}
