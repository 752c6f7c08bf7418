package io.sandboxfactory.tck;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.support.Sandboxes;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import static io.sandboxfactory.tck.ContractBench.PROBE_TIMEOUT;
import static io.sandboxfactory.tck.ContractBench.probe;
import static io.sandboxfactory.tck.ContractRule.ARGUMENT_QUOTING;
import static io.sandboxfactory.tck.ContractRule.CWD;
import static io.sandboxfactory.tck.ContractRule.CWD_MISSING;
import static io.sandboxfactory.tck.ContractRule.EXIT_CODES;
import static io.sandboxfactory.tck.ContractRule.OUTPUT_CAP;
import static io.sandboxfactory.tck.ContractRule.OUTPUT_STREAMS;
import static io.sandboxfactory.tck.ContractRule.STREAMING;
import static io.sandboxfactory.tck.ContractRule.WORKING_DIRECTORY;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** executeCommand: exit codes, separate streams, streaming callbacks, the output cap, quoting and cwd. */
abstract class CommandCases {

    /** Arguments that break naive quoting: spaces, both quotes, $, backslashes, globs, newlines, tabs, unicode. */
    static final List<String> AWKWARD_ARGUMENTS = List.of("plain", "two words", "it's", "\"double\"", "$HOME", "${PATH}",
            "back\\slash", "new\nline", "tab\there", "*", "-n", "`echo no`", "$(echo no)", "semi;colon", "a|b", "",
            " leading and trailing ", "ünïcødé ✓ 日本", "--", "'''");

    abstract ContractBench bench();

    private MastraSandbox<?> sandbox;

    @BeforeEach
    void startSandbox() {
        sandbox = bench().create(bench().newSessionId("exec"));
    }

    @Test
    @DisplayName("exit codes are reported as they are; a failing command is a result, not an exception")
    void exitCodes() {
        for (int code : new int[] {0, 1, 3, 42, 255}) {
            CommandResult result = EXIT_CODES.attempt("running 'exit " + code + "'", () -> sandbox.executeCommand("exit " + code));
            EXIT_CODES.requireEquals(code, result.exitCode(), "the exit code of 'exit " + code + "'");
            EXIT_CODES.requireEquals(code == 0, result.success(), "success() of 'exit " + code + "'");
            EXIT_CODES.require(!result.timedOut(), () -> "'exit " + code + "' without a timeout is reported as timed out");
        }
        CommandResult missing = EXIT_CODES.attempt("running a command that does not exist",
                () -> sandbox.executeCommand("tck-no-such-command-7f3a"));
        EXIT_CODES.require(missing.exitCode() != 0, () -> "a command that does not exist exited with 0");
    }

    @Test
    @DisplayName("stdout and stderr are collected separately")
    void stdoutAndStderrAreSeparate() {
        CommandResult result = OUTPUT_STREAMS.attempt("running a command that writes to both streams",
                () -> sandbox.executeCommand("printf 'to out\\n'; printf 'to err\\n' >&2; printf 'more out'"));
        OUTPUT_STREAMS.requireEquals("to out\nmore out", result.stdout(), "stdout");
        OUTPUT_STREAMS.requireEquals("to err\n", result.stderr(), "stderr");
        OUTPUT_STREAMS.require(!result.stdoutTruncated() && !result.stderrTruncated(), () -> "a few bytes of output are reported as truncated");
    }

    @Test
    @DisplayName("output reaches the callbacks while the command is still running")
    void outputStreamsWhileRunning() throws Exception {
        CompletableFuture<Void> firstLineSeen = new CompletableFuture<>();
        StringBuilder streamedOut = new StringBuilder();
        StringBuilder streamedErr = new StringBuilder();
        CommandOptions options = CommandOptions.builder()
                .timeout(PROBE_TIMEOUT)
                .onStdout(chunk -> {
                    synchronized (streamedOut) {
                        streamedOut.append(chunk);
                        if (streamedOut.indexOf("first") >= 0) {
                            firstLineSeen.complete(null);
                        }
                    }
                })
                .onStderr(chunk -> {
                    synchronized (streamedErr) {
                        streamedErr.append(chunk);
                    }
                })
                .build();
        // The command prints, then waits until a second command creates tck-go: only streaming lets this test see "first" in time.
        CompletableFuture<CommandResult> running = CompletableFuture.supplyAsync(() -> sandbox.executeCommand(
                "rm -f tck-go; echo first; echo warn >&2; i=0; while [ ! -f tck-go ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done; echo second",
                List.of(), options));
        try {
            firstLineSeen.get(PROBE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw STREAMING.broken("onStdout did not receive 'first' while the command was still running (it waits for a file that "
                    + "a second command creates after seeing 'first')");
        } finally {
            probe(STREAMING, sandbox, "touch tck-go");
        }
        CommandResult result = STREAMING.attempt("the streaming command", () -> running.get(PROBE_TIMEOUT.toSeconds(), TimeUnit.SECONDS));
        STREAMING.requireEquals("first\nsecond\n", result.stdout(), "stdout of the streaming command");
        synchronized (streamedOut) {
            STREAMING.requireEquals(result.stdout(), streamedOut.toString(), "the concatenated onStdout chunks");
        }
        synchronized (streamedErr) {
            STREAMING.requireEquals("warn\n", streamedErr.toString(), "the concatenated onStderr chunks");
        }
    }

    @Test
    @DisplayName("output beyond maxRetainedBytes keeps the newest bytes and is flagged; callbacks see all of it")
    void largeOutputIsCapped() {
        int lines = 20_000;
        String line = "0123456789abcdef";
        long total = (long) lines * (line.length() + 1) + "END\n".length();
        AtomicLong streamedOut = new AtomicLong();
        AtomicLong streamedErr = new AtomicLong();
        CommandOptions options = CommandOptions.builder()
                .timeout(PROBE_TIMEOUT)
                .maxRetainedBytes(1000)
                .onStdout(chunk -> streamedOut.addAndGet(chunk.length()))
                .onStderr(chunk -> streamedErr.addAndGet(chunk.length()))
                .build();
        String print = "i=0; while [ $i -lt " + lines + " ]; do echo " + line + "; i=$((i+1)); done; echo END";
        CommandResult result = OUTPUT_CAP.attempt("a command printing " + total + " bytes to each stream",
                () -> sandbox.executeCommand("{ " + print + "; } ; { " + print + "; } >&2", List.of(), options));

        OUTPUT_CAP.require(result.stdoutTruncated() && result.stderrTruncated(), () -> "a command that printed " + total
                + " bytes per stream with maxRetainedBytes 1000 reports stdoutTruncated=" + result.stdoutTruncated()
                + ", stderrTruncated=" + result.stderrTruncated());
        OUTPUT_CAP.require(result.stdout().length() <= 1000 && result.stderr().length() <= 1000, () -> "retained "
                + result.stdout().length() + " stdout and " + result.stderr().length() + " stderr bytes with maxRetainedBytes 1000");
        OUTPUT_CAP.require(result.stdout().endsWith(line + "\nEND\n") && result.stderr().endsWith(line + "\nEND\n"),
                () -> "the retained output is not the newest: it does not end with the last lines printed");
        OUTPUT_CAP.require(streamedOut.get() == total && streamedErr.get() == total, () -> "the callbacks received " + streamedOut.get()
                + " stdout and " + streamedErr.get() + " stderr characters of " + total + " printed to each");
    }

    @Test
    @DisplayName("awkward arguments round-trip verbatim through printf '%s\\n'")
    void argumentsRoundTrip() {
        CommandResult result = ARGUMENT_QUOTING.attempt("printf with awkward arguments",
                () -> sandbox.executeCommand("printf '%s\\n'", AWKWARD_ARGUMENTS, CommandOptions.builder().timeout(PROBE_TIMEOUT).build()));
        ARGUMENT_QUOTING.requireEquals(0, result.exitCode(), "the exit code of printf with awkward arguments (stderr '"
                + result.stderr().strip() + "')");
        String expected = String.join("\n", AWKWARD_ARGUMENTS) + "\n";
        ARGUMENT_QUOTING.requireEquals(expected, result.stdout(), "the output of printf '%s\\n' with awkward arguments");
        String line = Sandboxes.join("printf '%s\\n'", AWKWARD_ARGUMENTS);
        ARGUMENT_QUOTING.require(result.command().contains(line), () -> "CommandResult.command() is '" + result.command()
                + "', which does not contain the command line that ran");
    }

    @Test
    @DisplayName("a command runs in the cwd it is given, else in the default directory")
    void commandsRunInTheirCwd() {
        String home = probe(CWD, sandbox, "pwd").strip();
        CWD.require(home.startsWith("/"), () -> "pwd in the default directory printed '" + home + "', not an absolute path");
        probe(CWD, sandbox, "mkdir -p 'tck dir/inner'");
        String inner = home.endsWith("/") ? home + "tck dir/inner" : home + "/tck dir/inner";

        CommandResult result = CWD.attempt("pwd with cwd '" + inner + "'", () -> sandbox.executeCommand("pwd", List.of(),
                CommandOptions.builder().cwd(inner).timeout(PROBE_TIMEOUT).build()));
        CWD.requireEquals(inner, result.stdout().strip(), "pwd with cwd '" + inner + "'");
        CWD.requireEquals(home, probe(CWD, sandbox, "pwd").strip(), "pwd without a cwd after a command with one");
    }

    @Test
    @DisplayName("a relative cwd is taken from the default directory")
    void aRelativeCwdIsTakenFromTheDefaultDirectory() {
        String home = probe(CWD, sandbox, "pwd").strip();
        probe(CWD, sandbox, "mkdir -p tck-relative");
        CommandResult result = CWD.attempt("pwd with cwd 'tck-relative'", () -> sandbox.executeCommand("pwd", List.of(),
                CommandOptions.builder().cwd("tck-relative").timeout(PROBE_TIMEOUT).build()));
        String expected = home.endsWith("/") ? home + "tck-relative" : home + "/tck-relative";
        CWD.requireEquals(expected, result.stdout().strip(), "pwd with the relative cwd 'tck-relative'");
    }

    @Test
    @DisplayName("a cwd that does not exist fails the command with a SandboxException")
    void aMissingCwdFails() {
        String missing = "/tck-missing-" + bench().newSessionId("cwd");
        Object outcome;
        try {
            outcome = sandbox.executeCommand("pwd", List.of(), CommandOptions.builder().cwd(missing).timeout(PROBE_TIMEOUT).build());
        } catch (RuntimeException e) {
            outcome = e;
        }
        Object seen = outcome;
        CWD_MISSING.require(seen instanceof SandboxException, () -> seen instanceof CommandResult ran
                ? "a command with the missing cwd '" + missing + "' returned exit code " + ran.exitCode() + " instead of failing"
                : "a command with the missing cwd '" + missing + "' " + ContractBench.describe((RuntimeException) seen)
                        + ", not a SandboxException");
    }

    @Test
    @DisplayName("workingDirectory(), when present, is an absolute directory inside the sandbox")
    void workingDirectoryExists() {
        sandbox.start();
        assumeTrue(sandbox.workingDirectory().isPresent(), "The sandbox reports no workingDirectory(); the framework probes it.");
        String dir = sandbox.workingDirectory().orElseThrow();
        WORKING_DIRECTORY.require(dir.startsWith("/"), () -> "workingDirectory() is '" + dir + "', not an absolute path");
        CommandResult result = WORKING_DIRECTORY.attempt("test -d on workingDirectory()",
                () -> sandbox.executeCommand("test -d", List.of(dir)));
        WORKING_DIRECTORY.require(result.success(), () -> "workingDirectory() is '" + dir + "', which is not a directory in the sandbox");
    }
}
