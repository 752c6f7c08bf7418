package io.sandboxfactory.tck;

import io.sandboxfactory.api.capability.AttachableSandbox;
import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.capability.SandboxInventory;
import io.sandboxfactory.api.capability.SandboxListing;
import io.sandboxfactory.api.capability.StreamingSandbox;
import io.sandboxfactory.api.support.Sandboxes;
import io.sandboxfactory.api.StartOutcome;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.sandboxfactory.api.SandboxCapability.ATTACH;
import static io.sandboxfactory.api.SandboxCapability.INVENTORY;
import static io.sandboxfactory.api.SandboxCapability.STREAMS;
import static io.sandboxfactory.tck.ContractRule.ATTACH_NO_SECRET;
import static io.sandboxfactory.tck.ContractRule.CAPABILITY_ATTACH;
import static io.sandboxfactory.tck.ContractRule.CAPABILITY_INVENTORY;
import static io.sandboxfactory.tck.ContractRule.CAPABILITY_STREAMS;
import static io.sandboxfactory.tck.ContractRule.STREAM_ROUND_TRIP;
import static io.sandboxfactory.tck.ContractRule.INVENTORY_LISTING;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Declared capabilities match behaviour: INVENTORY (and its listing), ATTACH (and its command line), STREAMS (and their bytes). */
abstract class CapabilityCases {

    abstract ContractBench bench();

    @Test
    @DisplayName("INVENTORY is declared exactly when the factory implements SandboxInventory")
    void inventoryMatchesDeclaration() {
        FactorySandbox factory = bench().factory();
        boolean declared = bench().declares(INVENTORY);
        boolean implemented = factory instanceof SandboxInventory;
        CAPABILITY_INVENTORY.require(declared == implemented, () -> "the provider " + (declared ? "declares" : "does not declare")
                + " INVENTORY, but its FactorySandbox (" + factory.getClass().getName() + ") "
                + (implemented ? "implements" : "does not implement") + " SandboxInventory");
    }

    @Test
    @DisplayName("the inventory lists a started sandbox with its ids, and removeSandbox removes it, idempotently")
    void inventoryListsAndRemoves() {
        assumeTrue(bench().declares(INVENTORY) && bench().factory() instanceof SandboxInventory, () -> "Provider '"
                + bench().providerName() + "' does not declare INVENTORY (with a FactorySandbox that is a SandboxInventory):"
                + " listing is not checked.");
        SandboxInventory inventory = (SandboxInventory) bench().factory();
        String session = bench().newSessionId("inventory");
        MastraSandbox<?> sandbox = bench().create(session);
        INVENTORY_LISTING.perform("starting session '" + session + "'", sandbox::start);

        List<SandboxListing> listed = INVENTORY_LISTING.attempt("listSandboxes()", () -> bench().listingsOf(session));
        INVENTORY_LISTING.requireEquals(1, listed.size(), "the number of listings of session '" + session + "' after start()");
        SandboxListing listing = listed.get(0);
        INVENTORY_LISTING.requireEquals(sandbox.sandboxId().orElse(null), listing.sandboxId(),
                "the sandboxId listed for session '" + session + "'");

        INVENTORY_LISTING.perform("removeSandbox(" + listing.sandboxId() + ")", () -> inventory.removeSandbox(listing));
        INVENTORY_LISTING.require(bench().listingsOf(session).isEmpty(), () -> "listSandboxes() still lists session '" + session
                + "' after removeSandbox()");
        INVENTORY_LISTING.perform("a second removeSandbox(" + listing.sandboxId() + ")", () -> inventory.removeSandbox(listing));

        MastraSandbox<?> fresh = bench().create(session);
        INVENTORY_LISTING.perform("starting a new instance of the removed session '" + session + "'", fresh::start);
        INVENTORY_LISTING.requireEquals(StartOutcome.CREATED, fresh.lastStartOutcome().orElse(null),
                "the outcome of starting session '" + session + "' after removeSandbox()");
    }

    @Test
    @DisplayName("ATTACH is declared exactly when the sandboxes implement AttachableSandbox")
    void attachMatchesDeclaration() {
        MastraSandbox<?> sandbox = bench().create(bench().newSessionId("attach-declared"));
        boolean declared = bench().declares(ATTACH);
        boolean implemented = sandbox instanceof AttachableSandbox;
        CAPABILITY_ATTACH.require(declared == implemented, () -> "the provider " + (declared ? "declares" : "does not declare")
                + " ATTACH, but its sandbox (" + sandbox.getClass().getName() + ") " + (implemented ? "implements" : "does not implement")
                + " AttachableSandbox");
    }

    @Test
    @DisplayName("an attach puts the value of no session variable on its command line")
    void attachKeepsValuesOffTheCommandLine() {
        assumeTrue(bench().declares(ATTACH), () -> "Provider '" + bench().providerName() + "' has no ATTACH: no attach is checked.");
        String session = bench().newSessionId("attach");
        MastraSandbox<?> sandbox = bench().create(session);
        String secret = "tck-secret-" + session;
        sandbox.setEnv(env -> {
            env.put("TCK_ATTACH_SECRET", secret);
            return env;
        });
        ATTACH_NO_SECRET.perform("starting session '" + session + "'", sandbox::start);
        String directory = sandbox.workingDirectory().orElseGet(() -> ContractBench.probe(ATTACH_NO_SECRET, sandbox, "pwd").strip());

        AttachableSandbox.Attach attach = ATTACH_NO_SECRET.attempt("attach(" + directory + ") of session '" + session + "'",
                () -> ((AttachableSandbox) sandbox).attach(new AttachableSandbox.Request(directory, true, Map.of("PATH", "/usr/bin:/bin"))));
        ATTACH_NO_SECRET.require(attach.command().stream().noneMatch(argument -> argument.contains(secret)), () -> "the attach of session '"
                + session + "' has the value of its variable TCK_ATTACH_SECRET on its command line " + attach.command());
    }

    @Test
    @DisplayName("STREAMS is declared exactly when the sandboxes implement StreamingSandbox")
    void streamsMatchDeclaration() {
        MastraSandbox<?> sandbox = bench().create(bench().newSessionId("streams-declared"));
        boolean declared = bench().declares(STREAMS);
        boolean implemented = sandbox instanceof StreamingSandbox;
        CAPABILITY_STREAMS.require(declared == implemented, () -> "the provider " + (declared ? "declares" : "does not declare")
                + " STREAMS, but its sandbox (" + sandbox.getClass().getName() + ") " + (implemented ? "implements" : "does not implement")
                + " StreamingSandbox");
    }

    @Test
    @DisplayName("a stream carries every byte value both ways, and closing its input ends the program's input")
    void streamsCarryBytesAndEndTheirInput() throws Exception {
        assumeTrue(bench().declares(STREAMS), () -> "Provider '" + bench().providerName() + "' has no STREAMS: no stream is checked.");
        String session = bench().newSessionId("streams");
        MastraSandbox<?> sandbox = bench().create(session);
        STREAM_ROUND_TRIP.perform("starting session '" + session + "'", sandbox::start);
        byte[] data = new byte[256 * 1024];
        new Random(46).nextBytes(data);
        for (int b = 0; b < 256; b++) {
            data[b] = (byte) b;
        }
        byte[] end = "end\n".getBytes(StandardCharsets.US_ASCII);
        try (StreamingSandbox.SandboxStream stream = STREAM_ROUND_TRIP.attempt("openStream([sh, -c, cat; echo end]) in session '"
                + session + "'", () -> ((StreamingSandbox) sandbox).openStream(List.of("sh", "-c", "cat; echo end")))) {
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    for (int offset = 0; offset < data.length; offset += 10_000) {
                        stream.input().write(data, offset, Math.min(10_000, data.length - offset));
                    }
                    stream.input().close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> {
                try {
                    return stream.output().readAllBytes();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            byte[] back = STREAM_ROUND_TRIP.attempt("reading the stream's output to its end (the program ends once its input"
                    + " ends)", () -> read.get(ContractBench.PROBE_TIMEOUT.toSeconds(), TimeUnit.SECONDS));
            STREAM_ROUND_TRIP.perform("writing the stream's input", () -> writer.get(ContractBench.PROBE_TIMEOUT.toSeconds(), TimeUnit.SECONDS));
            byte[] expected = Arrays.copyOf(data, data.length + end.length);
            System.arraycopy(end, 0, expected, data.length, end.length);
            int wrong = Arrays.mismatch(back, expected);
            STREAM_ROUND_TRIP.require(wrong < 0, () -> "the stream gave back " + back.length + " bytes for " + expected.length
                    + " expected (what cat echoed, then 'end'), the first wrong at offset " + wrong);
        }
    }
}
