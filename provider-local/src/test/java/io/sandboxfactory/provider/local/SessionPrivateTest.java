package io.sandboxfactory.provider.local;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class SessionPrivateTest {

    @TempDir
    Path temp;

    @Test
    void deleteRemovesTheFifoDirectoriesAServerLeftInSharedMemoryAndNoOther() throws Exception {
        assumeTrue(ForkServer.fifoParent(ForkServer.SHARED_MEMORY).isPresent(), "a writable /dev/shm");
        SessionPrivate own = SessionPrivate.of(temp.resolve("sessions").resolve("s"));
        Path left = own.newFifoDirectory(Optional.of(ForkServer.SHARED_MEMORY));
        Files.writeString(own.errorLog(left), "bwrap: what it said\n");
        Files.createFile(left.resolve("1.o"));
        Path another = Files.createTempDirectory(ForkServer.SHARED_MEMORY, "sandbox-factory-fork-");
        try {
            assertThat(left.getParent()).isEqualTo(ForkServer.SHARED_MEMORY);

            own.delete();

            assertThat(left).doesNotExist();
            assertThat(own.base()).doesNotExist();
            assertThat(another).as("another session's").isDirectory();
        } finally {
            Directories.deleteRecursively(another);
            Directories.deleteRecursively(left);
        }
    }

    @Test
    void withoutSharedMemoryTheFifosAreInThePrivateDirectory() throws Exception {
        SessionPrivate own = SessionPrivate.of(temp.resolve("sessions").resolve("s"));

        Path fifos = own.newFifoDirectory(Optional.empty());

        assertThat(fifos.getParent()).isEqualTo(own.base());
        own.delete();
        assertThat(own.base()).doesNotExist();
    }
}
