package io.sandboxfactory.bench;

import io.sandboxfactory.bench.report.Group;
import io.sandboxfactory.bench.stats.Contender;
import io.sandboxfactory.bench.stats.Interleaved;
import io.sandboxfactory.core.files.SandboxFilesystem;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Writing and reading one file of a given size through each path: the host file system itself (the
 * floor for the local provider), the local session's {@link SandboxFilesystem}, the Docker sandbox's
 * (the engine's archive API), {@code docker cp} and Testcontainers' copy calls. Compared with {@code
 * docker cp} when the docker CLI is there, else with the host file system.
 */
public final class FileGroups {

    static final String HOST = "host Files.write/readAllBytes";
    static final String DOCKER_CP = "docker cp";
    private static final String DOCKER_ROOT = "/workspace";

    private final Subjects subjects;

    public FileGroups(Subjects subjects) {
        this.subjects = subjects;
    }

    /** The write group and the read group for {@code bytes}, labelled {@code size}. */
    public List<Group> measure(String size, int bytes, Interleaved rounds) throws Exception {
        byte[] payload = new byte[bytes];
        new Random(bytes).nextBytes(payload);
        String name = "bench-" + bytes + ".bin";
        Path hostSource = Files.write(subjects.workspace().directory("payload-" + bytes).resolve(name), payload);
        Path hostOut = subjects.workspace().directory("copied-" + bytes);
        Path checkout = Path.of(subjects.localSession().filesRoot().orElseThrow());
        SandboxFilesystem local = SandboxFilesystem.forSession(subjects.localSession());
        String baseline = subjects.dockerWithCli().isPresent() ? DOCKER_CP : HOST;

        List<Contender> writes = new ArrayList<>();
        List<Contender> reads = new ArrayList<>();
        writes.add(Contender.of(HOST, () -> Files.write(checkout.resolve("host-" + name), payload)));
        reads.add(Contender.of(HOST, () -> expect(HOST, bytes, Files.readAllBytes(checkout.resolve("host-" + name)).length)));
        writes.add(Contender.of("local session files", () -> local.writeFile("local-" + name, payload)));
        reads.add(Contender.of("local session files", () -> expect("local", bytes, local.readFile("local-" + name).length)));
        subjects.docker().ifPresent(docker -> {
            SandboxFilesystem files = SandboxFilesystem.of(docker.channel(), DOCKER_ROOT);
            writes.add(Contender.of("docker session files", () -> files.writeFile("api-" + name, payload)));
            reads.add(Contender.of("docker session files", () -> expect("docker", bytes, files.readFile("api-" + name).length)));
        });
        subjects.dockerWithCli().ifPresent(docker -> {
            String target = docker.containerId() + ":" + DOCKER_ROOT + "/cp-" + name;
            Path copied = hostOut.resolve("cp-" + name);
            writes.add(Contender.of(DOCKER_CP, () -> dockerCp(hostSource.toString(), target)));
            reads.add(Contender.of(DOCKER_CP, () -> {
                dockerCp(target, copied.toString());
                expect(DOCKER_CP, bytes, Files.size(copied));
            }));
        });
        subjects.testcontainers().ifPresent(tc -> {
            Path copied = hostOut.resolve("tc-" + name);
            writes.add(Contender.of("Testcontainers copyFileToContainer", () -> tc.copyIn(hostSource, "/tmp/tc-" + name)));
            reads.add(Contender.of("Testcontainers copyFileFromContainer", () -> {
                tc.copyOut("/tmp/tc-" + name, copied);
                expect("Testcontainers", bytes, Files.size(copied));
            }));
        });
        // A read needs the file: every path writes once before the read rounds.
        for (Contender write : writes) {
            write.work().run();
        }
        Group write = new Group("write " + size, baseline, rounds.run(writes));
        Group read = new Group("read " + size, baseline, rounds.run(reads));
        return List.of(write, read);
    }

    private void dockerCp(String from, String to) throws Exception {
        subjects.workspace().processes().quiet(subjects.workspace().root(), Map.of(), List.of("docker", "cp", "-q", from, to));
    }

    private static void expect(String path, long expected, long got) {
        if (got != expected) {
            throw new IllegalStateException(path + " read " + got + " bytes; the file has " + expected + ".");
        }
    }
}
