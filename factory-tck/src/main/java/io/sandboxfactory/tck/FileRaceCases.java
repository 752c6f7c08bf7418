package io.sandboxfactory.tck;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.files.FileOperationsSandbox;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.core.files.FileInfo;
import io.sandboxfactory.core.files.SandboxFilesystem;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static io.sandboxfactory.api.SandboxCapability.FILE_TRANSFER;
import static io.sandboxfactory.tck.ContractRule.FILE_CONFINEMENT;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The link-swap race, an attack on the file tools of a provider with FILE_TRANSFER: a command in
 * the sandbox swaps a directory of the root between a real directory and a link to a directory
 * outside the root, a bounded number of times, while writes and lists of that directory run
 * through {@link SandboxFilesystem}. Operations may fail; none may create anything outside, and no
 * listing may show the outside directory's entry. Two targets:
 *
 * <ul>
 * <li>a directory inside the sandbox but outside the root, for sandboxes that work on their files
 *     from outside their isolation ({@link FileOperationsSandbox}, such as the local provider's
 *     java.nio on the host); one that moves files inside its own isolation (docker's archive
 *     endpoints, tar in a pod) is skipped, saying so: a link there leads only within the sandbox;
 * <li>a directory of the kit's host that the sandbox cannot see (a link to its path leads nowhere
 *     inside the sandbox), for every provider: the file tools must never resolve a sandbox's link
 *     on the host, as an engine that followed it outside the container's root would. Skipped,
 *     saying so, where the sandbox sees the host's directory: then the first target is the same place.
 * </ul>
 */
abstract class FileRaceCases {

    /** Swaps the command makes; each is four short processes, so the race lasts seconds, and ends by itself. */
    static final int SWAPS = 1000;
    /** Writes and lists each, run while the command swaps. */
    static final int OPERATIONS = 300;
    private static final String HOST_ENTRY = "outside-only-entry";
    private static final Duration SWAPPER_LIMIT = Duration.ofMinutes(3);

    abstract ContractBench bench();

    @Test
    @DisplayName("writes and lists never reach a host directory a concurrent link swap points at")
    void linkSwapRaceNeverReachesTheHost() throws IOException {
        assumeTrue(bench().declares(FILE_TRANSFER), () -> "Provider '" + bench().providerName()
                + "' has no FILE_TRANSFER: its file tools run as commands inside the sandbox.");
        String session = bench().newSessionId("hostrace");
        MastraSandbox<?> sandbox = bench().create(session);
        FILE_CONFINEMENT.perform("starting session '" + session + "'", sandbox::start);
        Path host = Files.createTempDirectory("sf-race-host-");
        try {
            Files.writeString(host.resolve(HOST_ENTRY), "secret");
            String seen = ContractBench.run(sandbox, "cat " + host.resolve(HOST_ENTRY) + " 2>/dev/null").stdout();
            assumeTrue(!seen.contains("secret"), () -> "Provider '" + bench().providerName() + "' lets its sandboxes see the host's "
                    + host + ": the race with a link into the sandbox covers it.");
            String base = ContractBench.probe(FILE_CONFINEMENT, sandbox, "pwd").strip();
            String root = (base.equals("/") ? "" : base) + "/race-host-" + host.getFileName();
            ContractBench.probe(FILE_CONFINEMENT, sandbox, "mkdir -p " + root + "/d");
            try {
                race(sandbox, root, host.toString(), () -> hostEntries(host));
            } finally {
                ContractBench.run(sandbox, "rm -rf " + root);
            }
        } finally {
            try (Stream<Path> left = Files.walk(host)) {
                left.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** The host directory's entries and its entry's content, as the in-sandbox check prints them. */
    private static String hostEntries(Path host) {
        try (Stream<Path> entries = Files.list(host)) {
            List<String> names = entries.map(p -> p.getFileName().toString()).sorted().toList();
            String content = Files.isRegularFile(host.resolve(HOST_ENTRY)) ? Files.readString(host.resolve(HOST_ENTRY)) : "";
            return String.join("\n", names) + "\n" + content;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    @DisplayName("writes and lists never reach the directory a concurrent link swap points at")
    void linkSwapRaceStaysInsideTheRoot() {
        assumeTrue(bench().declares(FILE_TRANSFER), () -> "Provider '" + bench().providerName()
                + "' has no FILE_TRANSFER: its file tools run as commands inside the sandbox.");
        String session = bench().newSessionId("filerace");
        MastraSandbox<?> sandbox = bench().create(session);
        assumeTrue(sandbox instanceof FileOperationsSandbox, () -> "Provider '" + bench().providerName() + "' moves files inside"
                + " its sandboxes (its FileTransferSandbox is no FileOperationsSandbox): a swapped link leads only within the sandbox,"
                + " whose isolation is the boundary, so the link-swap race is not checked.");
        FILE_CONFINEMENT.perform("starting session '" + session + "'", sandbox::start);
        String tag = UUID.randomUUID().toString().substring(0, 8);
        String outside = "/tmp/sf-race-outside-" + tag;
        String base = ContractBench.probe(FILE_CONFINEMENT, sandbox, "pwd").strip();
        String root = (base.equals("/") ? "" : base) + "/race-root-" + tag;
        ContractBench.probe(FILE_CONFINEMENT, sandbox, "mkdir -p " + outside + " " + root + "/d && printf secret > " + outside + "/" + HOST_ENTRY);
        try {
            race(sandbox, root, outside, () -> ContractBench.probe(FILE_CONFINEMENT, sandbox, "ls -A " + outside + " && cat " + outside + "/" + HOST_ENTRY));
        } finally {
            ContractBench.run(sandbox, "rm -rf " + outside + " " + root);
        }
    }

    /**
     * Runs the race against {@code outside}; {@code left} tells what the outside directory holds
     * afterwards: its entries, one per line, then its entry's content.
     */
    private void race(MastraSandbox<?> sandbox, String root, String outside, Supplier<String> left) {
        SandboxFilesystem files = SandboxFilesystem.of(sandbox, root);
        // A write may make 'd' again while it is away (it creates missing parents): each step tolerates that.
        String swapper = "cd " + root + " && : > started && i=0; while [ $i -lt " + SWAPS + " ]; do "
                + "mv -T d d.real; ln -s " + outside + " d; rm -f d; rm -rf d; mv -T d.real d; i=$((i + 1)); done 2>/dev/null; [ -d d ]";
        CompletableFuture<CommandResult> swapping = CompletableFuture.supplyAsync(() -> sandbox.executeCommand(swapper, List.of(),
                CommandOptions.builder().timeout(SWAPPER_LIMIT).build()));
        FILE_CONFINEMENT.attempt("waiting for the swapping command to start", () -> {
            while (!files.exists("started") && !swapping.isDone()) {
                Thread.onSpinWait();
            }
            return null;
        });
        Set<String> shown = ConcurrentHashMap.newKeySet();
        AtomicInteger failures = new AtomicInteger();
        CompletableFuture<Void> writes = CompletableFuture.runAsync(() -> {
            for (int i = 0; i < OPERATIONS; i++) {
                try {
                    files.writeText("d/w" + i, "written " + i);
                } catch (SandboxException e) {
                    failures.incrementAndGet();
                }
            }
        });
        for (int i = 0; i < OPERATIONS; i++) {
            try {
                for (FileInfo entry : files.list("d")) {
                    shown.add(entry.name());
                }
            } catch (SandboxException e) {
                failures.incrementAndGet();
            }
        }
        writes.join();
        CommandResult swapped = swapping.join();
        FILE_CONFINEMENT.require(swapped.exitCode() == 0, () -> "the swapping command failed (exit " + swapped.exitCode() + ", stderr '"
                + swapped.stderr().strip() + "'), so the race was not run");
        FILE_CONFINEMENT.require(!shown.contains(HOST_ENTRY), () -> "a listing of 'd' under the root showed '" + HOST_ENTRY
                + "', the entry of the directory outside the root that the link pointed to");
        FILE_CONFINEMENT.requireEquals(HOST_ENTRY + "\nsecret", left.get().strip(), "the outside directory's entries and content after "
                + OPERATIONS + " writes (" + failures.get() + " operations failed) raced " + SWAPS + " swaps");
    }
}
