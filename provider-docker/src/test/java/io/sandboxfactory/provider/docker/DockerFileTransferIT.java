package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.files.FileTransferSandbox;
import io.sandboxfactory.api.files.PathOutsideRootException;
import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.files.SandboxFileException;
import io.sandboxfactory.api.files.TransferEntry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The archive-API file transfer against a real container: uploads, downloads, resolution and the engine's refusals. */
@ExtendWith(RequiresDockerEngine.class)
class DockerFileTransferIT {

    private static final String ROOT = "/workspace";

    private DockerFixture fixture;
    private DockerSandbox sandbox;

    @BeforeEach
    void startSandbox() {
        fixture = new DockerFixture();
        sandbox = fixture.factory().create(FactorySandboxContext.of(fixture.sessionId("transfer")));
        sandbox.start();
    }

    @AfterEach
    void cleanUp() {
        fixture.close();
    }

    private String sh(String script) {
        CommandResult result = sandbox.executeCommand(script);
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        return result.stdout();
    }

    private static FileTransferSandbox.Source source(Map<TransferEntry, String> entries) {
        return new FileTransferSandbox.Source() {
            @Override
            public List<TransferEntry> entries() {
                return List.copyOf(entries.keySet());
            }

            @Override
            public InputStream open(TransferEntry file) {
                return new ByteArrayInputStream(entries.get(file).getBytes(StandardCharsets.UTF_8));
            }
        };
    }

    private Map<String, String> copyOut(String path) {
        Map<String, String> seen = new LinkedHashMap<>();
        sandbox.copyOut(ROOT, path, (entry, content) -> seen.put(entry.path(), entry.type()
                + (entry.type() == TransferEntry.Type.SYMLINK ? "->" + entry.linkTarget()
                : entry.type() == TransferEntry.Type.FILE ? ":" + new String(content.readAllBytes(), StandardCharsets.UTF_8) : "")));
        return seen;
    }

    @Test
    void uploadsAndDownloadsTreesWithLongAndUnicodeNames() {
        String longName = "n".repeat(150) + "-☕ with space\nand newline";
        Map<TransferEntry, String> entries = new LinkedHashMap<>();
        entries.put(TransferEntry.directory("up", 0750), "");
        entries.put(TransferEntry.file("up/" + longName, 5, 0755), "hello");
        entries.put(TransferEntry.symlink("up/link", longName), "");
        sandbox.copyIn(ROOT, ROOT, source(entries));

        assertThat(sh("cat \"/workspace/up/$(ls /workspace/up | grep -v link | head -c 150)\"* ; stat -c %a /workspace/up")).isEqualTo("hello750\n");
        assertThat(copyOut(ROOT + "/up")).containsExactly(
                Map.entry("up", "DIRECTORY"), Map.entry("up/link", "SYMLINK->" + longName), Map.entry("up/" + longName, "FILE:hello"));
    }

    @Test
    void deliversHardLinkedFilesWithTheirContent() {
        sh("mkdir -p /workspace/h && printf shared > /workspace/h/a && ln /workspace/h/a /workspace/h/b");
        Map<String, String> seen = copyOut(ROOT + "/h");
        assertThat(seen).containsEntry("h/a", "FILE:shared").containsEntry("h/b", "FILE:shared");
    }

    @Test
    void resolvesThroughLinksWithoutACommand() {
        Assumptions.assumeFalse("runsc".equals(DockerFixture.runtime()), 
                "under runsc a FIFO made inside the sandbox is not seen by the engine's stat of the container's files");
        sh("mkdir -p /workspace/real && ln -s real /workspace/alias && ln -s /etc /workspace/out && ln -s gone/deeper /workspace/dangling"
                + " && mkfifo /workspace/pipe");
        assertThat(sandbox.resolve("/workspace/alias")).contains(new FileTransferSandbox.Resolution("/workspace/real", FileTransferSandbox.Kind.DIRECTORY));
        assertThat(sandbox.resolve("/workspace/out/passwd")).contains(new FileTransferSandbox.Resolution("/etc/passwd", FileTransferSandbox.Kind.FILE));
        assertThat(sandbox.resolve("/workspace/dangling/x"))
                .contains(new FileTransferSandbox.Resolution("/workspace/gone/deeper/x", FileTransferSandbox.Kind.MISSING));
        assertThat(sandbox.resolve("/workspace/pipe")).contains(new FileTransferSandbox.Resolution("/workspace/pipe", FileTransferSandbox.Kind.OTHER));
    }

    @Test
    void refusesPathsOutsideTheRootAndEntriesBelowALinkOfTheSameCopy() {
        Map<TransferEntry, String> one = Map.of(TransferEntry.file("x", 1, 0644), "x");
        assertThatThrownBy(() -> sandbox.copyIn(ROOT, "/etc", source(one))).isInstanceOf(PathOutsideRootException.class);
        assertThatThrownBy(() -> sandbox.copyIn(ROOT, "/workspace/../etc", source(one))).isInstanceOf(PathOutsideRootException.class);
        assertThatThrownBy(() -> copyOut("/etc/passwd")).isInstanceOf(PathOutsideRootException.class);

        Map<TransferEntry, String> sneaky = new LinkedHashMap<>();
        sneaky.put(TransferEntry.symlink("l", "/etc"), "");
        sneaky.put(TransferEntry.file("l/pwned", 5, 0644), "pwned");
        assertThatThrownBy(() -> sandbox.copyIn(ROOT, ROOT, source(sneaky)))
                .isInstanceOf(PathOutsideRootException.class).hasMessageContaining("'l/pwned'");
        assertThat(sh("test -e /etc/pwned || echo absent")).isEqualTo("absent\n");
    }

    @Test
    void reportsMissingDirectoriesAndNeverReplacesADirectoryByAFile() {
        assertThatThrownBy(() -> sandbox.copyIn(ROOT, "/workspace/missing", source(Map.of(TransferEntry.file("x", 1, 0644), "x"))))
                .isInstanceOfSatisfying(SandboxFileException.class, e -> assertThat(e.code()).isEqualTo(SandboxFileException.NOT_FOUND));
        assertThatThrownBy(() -> copyOut("/workspace/missing"))
                .isInstanceOfSatisfying(SandboxFileException.class, e -> assertThat(e.code()).isEqualTo(SandboxFileException.NOT_FOUND));
        sh("mkdir -p /workspace/dir/keep");
        assertThatThrownBy(() -> sandbox.copyIn(ROOT, ROOT, source(Map.of(TransferEntry.file("dir", 1, 0644), "x"))))
                .isInstanceOf(SandboxFileException.class).hasMessageContaining("cannot overwrite directory");
        assertThat(sh("test -d /workspace/dir/keep && echo kept")).isEqualTo("kept\n");
    }

    @Test
    void aRemovedContainerIsADestroyedSandbox() {
        fixture.engine().removeContainerCmd(sandbox.sandboxId().orElseThrow()).withForce(true).exec();
        assertThatThrownBy(() -> sandbox.copyIn(ROOT, ROOT, source(Map.of(TransferEntry.file("x", 1, 0644), "x"))))
                .isInstanceOf(SandboxDestroyedException.class);
        assertThatThrownBy(() -> copyOut(ROOT)).isInstanceOf(SandboxDestroyedException.class);
    }
}
