package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.support.OutputCollector;
import io.sandboxfactory.api.support.OutputPump;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Starts every command as a process of the JVM through the {@code setsid} program, with one pool
 * thread per output stream. The fallback where there is no perl for the {@link ForkServer}: an
 * extra program start per command, about as costly as the shell's own.
 *
 * @param setsid the {@code setsid} program's path
 * @param pumps the threads that copy each command's output
 */
record ProcessLauncher(String setsid, Executor pumps) implements Launcher {

    @Override
    public Launch start(String commandLine, Path cwd, Map<String, String> env, OutputCollector stdout,
                        OutputCollector stderr) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(List.of(setsid, "/bin/sh", "-c", commandLine)).directory(cwd.toFile());
        builder.environment().clear();
        builder.environment().putAll(env);
        Process process = builder.start();
        try {
            process.getOutputStream().close();
        } catch (IOException ignored) {
            // Commands get no input; a stdin that is already gone is just as good.
        }
        return new ProcessLaunch(process, List.of(OutputPump.start(process::getInputStream, stdout, pumps),
                OutputPump.start(process::getErrorStream, stderr, pumps)));
    }

    /**
     * A process of this JVM as a launch; with no pumps, one whose output is read elsewhere (a session's
     * boundary, recorded like a command so another instance can end it: its output is the fork
     * server's frames).
     */
    record ProcessLaunch(Process process, List<OutputPump> pumps) implements Launch {

        @Override
        public long pid() {
            return process.pid();
        }

        @Override
        public Optional<ProcessHandle> leader() {
            return Optional.of(process.toHandle());
        }

        @Override
        public boolean awaitExit(Duration timeout) throws InterruptedException {
            if (timeout == null) {
                process.waitFor();
                return true;
            }
            return process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int exitCode() {
            return process.exitValue();
        }

        @Override
        public void awaitOutputEnd(long deadlineNanos) throws InterruptedException {
            for (OutputPump pump : pumps) {
                pump.awaitEnd(deadlineNanos);
            }
        }

        @Override
        public void detach() {
            pumps.forEach(OutputPump::detach);
        }
    }
}
