package io.sandboxfactory.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The repository's {@code ./factory} script on its first run, in a copy of the checkout whose Maven
 * wrapper is a stand-in: it prints what Maven prints per module and then puts the real jar in place
 * (or fails). What is under test is the script: the progress it shows and where it keeps the log.
 */
class FactoryScriptIT {

    @TempDir
    Path temp;

    private Path checkout;
    private Path tmp;

    /** A checkout with the real script and a wrapper that "builds" two modules, then runs {@code then}. */
    private void checkoutWithWrapper(String then) throws Exception {
        Path project = Path.of(System.getProperty("user.dir")).getParent();
        checkout = Files.createDirectories(temp.resolve("checkout"));
        tmp = Files.createDirectories(temp.resolve("tmp"));
        Files.copy(project.resolve("factory"), checkout.resolve("factory"));
        Path wrapper = checkout.resolve("mvnw");
        Files.writeString(wrapper, String.join("\n",
                "#!/usr/bin/env bash",
                "echo '[INFO] Scanning for projects...'",
                "echo '[INFO] Building factory-api 0.1.0-SNAPSHOT                                [1/2]'",
                "echo '[INFO] Building jar: /somewhere/factory-api.jar'",
                "echo '[INFO] Building factory-cli 0.1.0-SNAPSHOT                                [2/2]'",
                "echo 'the whole maven output' >&2",
                then, ""));
        Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwx------"));
        Files.setPosixFilePermissions(checkout.resolve("factory"), PosixFilePermissions.fromString("rwx------"));
    }

    private CliProcess.Result runScript(String... args) {
        List<String> command = new java.util.ArrayList<>(List.of(checkout.resolve("factory").toString()));
        command.addAll(List.of(args));
        return CliProcess.exec(command, checkout, Map.of("TMPDIR", tmp.toString(), "FACTORY_CDS", "off", "FACTORY_DAEMON", "off",
                "JAVA_HOME", System.getProperty("java.home")));
    }

    @Test
    void theFirstBuildShowsAProgressLinePerModuleAndKeepsItsLogInTheCheckout() throws Exception {
        checkoutWithWrapper("mkdir -p factory-cli/target && cp '" + StartupArchive.jar() + "' factory-cli/target/factory.jar");

        CliProcess.Result version = runScript("--version");

        assertThat(version.exitCode()).as(version.toString()).isZero();
        Path log = checkout.resolve("factory-cli/target/factory-build.log");
        assertThat(version.stderr().lines()).as(version.toString()).containsSubsequence(
                "factory: building the command-line jar (first run, about 2 min); log: " + log,
                "factory:   [1/2] factory-api 0.1.0-SNAPSHOT",
                "factory:   [2/2] factory-cli 0.1.0-SNAPSHOT");
        assertThat(version.stderr()).as("Maven's own output stays in the log").doesNotContain("Building jar", "the whole maven output");
        assertThat(log).content().contains("Scanning for projects", "Building jar: /somewhere", "the whole maven output");
        assertThat(tmp).as("nothing in the shared temporary directory").isEmptyDirectory();
        assertThat(checkout.resolve("factory-cli/target/factory-build.seconds")).exists();
    }

    @Test
    void aFailedBuildNamesTheLogInTheCheckout() throws Exception {
        checkoutWithWrapper("echo '[ERROR] COMPILATION ERROR'; exit 1");

        CliProcess.Result failed = runScript("--version");

        Path log = checkout.resolve("factory-cli/target/factory-build.log");
        assertThat(failed.exitCode()).as(failed.toString()).isEqualTo(1);
        assertThat(failed.stderr()).contains("factory: the build failed; see " + log);
        assertThat(log).content().contains("COMPILATION ERROR");
        assertThat(tmp).isEmptyDirectory();
    }
}
