package io.sandboxfactory.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class SourceCommitTest {

    @TempDir
    Path tmp;

    @Test
    void namesTheCheckoutsCommitAndSaysWhenItsFilesDiffer() throws Exception {
        git("init", "-q");
        Files.writeString(tmp.resolve("a.txt"), "a\n");
        git("add", "a.txt");
        git("-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "a");
        String head = new String(new ProcessBuilder("git", "-C", tmp.toString(), "rev-parse", "--short=12", "HEAD").start()
                .getInputStream().readAllBytes()).strip();

        assertThat(SourceCommit.of(tmp)).isEqualTo(head);
        Files.writeString(tmp.resolve("a.txt"), "changed\n");
        assertThat(SourceCommit.of(tmp)).isEqualTo(head + "-dirty");
    }

    @Test
    void aDirectoryOutsideAnyCheckoutIsSaidToBeOne() {
        assertThat(SourceCommit.of(tmp.resolve("nowhere"))).startsWith("unknown (").endsWith("is not a git checkout)");
    }

    private void git(String... args) throws Exception {
        String[] command = new String[args.length + 3];
        command[0] = "git";
        command[1] = "-C";
        command[2] = tmp.toString();
        System.arraycopy(args, 0, command, 3, args.length);
        assertThat(new ProcessBuilder(command).inheritIO().start().waitFor()).isZero();
    }
}
