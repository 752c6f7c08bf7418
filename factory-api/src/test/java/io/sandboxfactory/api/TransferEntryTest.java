package io.sandboxfactory.api;

import io.sandboxfactory.api.files.TransferEntry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TransferEntryTest {

    @Test
    void acceptsRelativePathsOfAnyScript() {
        TransferEntry entry = TransferEntry.file("dir/naïve\nname ☕", 3, 0644);
        assertThat(entry.name()).isEqualTo("naïve\nname ☕");
        assertThat(entry.withPath("other/x").path()).isEqualTo("other/x");
        assertThat(TransferEntry.symlink("l", "/etc/passwd").linkTarget()).isEqualTo("/etc/passwd");
    }

    @Test
    void refusesPathsThatCouldLeaveTheirDirectory() {
        for (String path : new String[] {"", "/abs", "a/../b", "..", "./a", "a//b", "a/", "nul\0"}) {
            assertThatThrownBy(() -> TransferEntry.directory(path, 0755)).as(path).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void refusesInconsistentFields() {
        assertThatThrownBy(() -> TransferEntry.file("f", -1, 0644)).hasMessageContaining("size -1");
        assertThatThrownBy(() -> new TransferEntry("d", TransferEntry.Type.DIRECTORY, 5, 0755, null)).hasMessageContaining("size 5");
        assertThatThrownBy(() -> TransferEntry.file("f", 0, 010000)).hasMessageContaining("mode 10000");
        assertThatThrownBy(() -> new TransferEntry("l", TransferEntry.Type.SYMLINK, 0, 0777, null)).hasMessageContaining("without a link target");
        assertThatThrownBy(() -> new TransferEntry("f", TransferEntry.Type.FILE, 0, 0644, "x")).hasMessageContaining("with a link target");
    }
}
