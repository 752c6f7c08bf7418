package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.api.capability.SandboxListing;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static io.sandboxfactory.provider.local.TestBed.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The local provider lists and removes only the session directories it made. */
class LocalInventoryTest {

    @TempDir
    Path temp;

    private TestBed bed;

    @BeforeEach
    void open() {
        bed = new TestBed(temp);
    }

    @AfterEach
    void close() {
        bed.close();
    }

    @Test
    void declaresInventoryAmongItsCapabilities() {
        assertThat(bed.factory().capabilities()).contains(SandboxCapability.INVENTORY,
                SandboxCapability.FILES_SURVIVE_STOP, SandboxCapability.RECONNECT_ACROSS_PROCESSES);
    }

    @Test
    void anAbsentRootListsNothing() {
        assertThat(bed.factory().listSandboxes()).isEmpty();
    }

    @Test
    void listsOnlyDirectoriesCarryingTheOwnerMarker() throws Exception {
        run(bed.sandbox("one"), "true");
        run(bed.sandbox("two"), "true");
        Files.createDirectories(bed.root().resolve("foreign"));
        Files.writeString(bed.root().resolve("loose-file"), "x");

        assertThat(bed.factory().listSandboxes())
                .extracting(SandboxListing::sessionId, SandboxListing::sandboxId)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("one", bed.root().resolve("one").toString()),
                        org.assertj.core.groups.Tuple.tuple("two", bed.root().resolve("two").toString()));
    }

    @Test
    void removesAListedSessionDirectoryIdempotently() {
        run(bed.sandbox("old"), "echo x > f");
        SandboxListing listed = bed.factory().listSandboxes().get(0);

        bed.factory().removeSandbox(listed);
        bed.factory().removeSandbox(listed);

        assertThat(bed.root().resolve("old")).doesNotExist();
        assertThat(bed.factory().listSandboxes()).isEmpty();
    }

    @Test
    void refusesADirectoryOutsideTheRootEvenWithTheMarker() throws Exception {
        Path outside = Files.createDirectories(temp.resolve("elsewhere/victim"));
        Files.writeString(outside.resolve(LocalSandbox.OWNER_MARKER), "victim\n");

        assertThatThrownBy(() -> bed.factory().removeSandbox(listing(outside)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(outside.toString())
                .hasMessageContaining(bed.root().toString());
        assertThat(outside.resolve(LocalSandbox.OWNER_MARKER)).exists();
    }

    @Test
    void refusesAPathThatOnlyLooksInsideTheRoot() throws Exception {
        Path outside = Files.createDirectories(temp.resolve("victim"));
        Files.writeString(outside.resolve(LocalSandbox.OWNER_MARKER), "victim\n");

        assertThatThrownBy(() -> bed.factory().removeSandbox(listing(bed.root().resolve("../victim"))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(outside.resolve(LocalSandbox.OWNER_MARKER)).exists();
    }

    @Test
    void refusesADirectoryUnderTheRootWithoutTheMarker() throws Exception {
        Path foreign = Files.createDirectories(bed.root().resolve("foreign"));
        Files.writeString(foreign.resolve("precious"), "x");

        assertThatThrownBy(() -> bed.factory().removeSandbox(listing(foreign)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a session directory made by the local provider");
        assertThat(foreign.resolve("precious")).exists();
    }

    private static SandboxListing listing(Path dir) {
        return new SandboxListing(dir.toString(), dir.getFileName().toString(), false, Optional.empty());
    }
}
