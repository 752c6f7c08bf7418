package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.support.OutputCollector;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Starts shell command lines, each as the leader of a new process group (its pid is also the id
 * of the group) without a controlling terminal, with stdin empty and stdout and stderr copied
 * into the given collectors.
 */
interface Launcher {

    /** Runs {@code /bin/sh -c commandLine} in {@code cwd} with exactly {@code env}. */
    Launch start(String commandLine, Path cwd, Map<String, String> env, OutputCollector stdout, OutputCollector stderr)
            throws IOException;

    /** Releases what the launcher holds; commands already started keep running. */
    default void close() {
    }

    /** One started command. */
    interface Launch {

        /** The pid of the command's shell: the id of its process group. */
        long pid();

        /** The shell, while it runs; empty when it already exited by the time it was looked up. */
        Optional<ProcessHandle> leader();

        /** Waits for the shell to exit, at most {@code timeout} (null: forever); whether it exited. */
        boolean awaitExit(Duration timeout) throws InterruptedException;

        /**
         * The shell's exit code (128 + the signal number when a signal ended it); only after it exited.
         *
         * @throws java.io.UncheckedIOException when what ran it was lost before the exit was known
         */
        int exitCode();

        /**
         * Whether the shell's process group was known to be empty when the shell exited (nothing
         * left in the background), so it need not be tracked; false when unknown.
         */
        default boolean groupEmptyAtExit() {
            return false;
        }

        /** Waits until both output streams ended, or until the deadline ({@link System#nanoTime()}). */
        void awaitOutputEnd(long deadlineNanos) throws InterruptedException;

        /** After this returns the collectors receive nothing more, and the command's pipes are closed. */
        void detach();

        /**
         * Kills the command's process group and tree from inside its session's boundary, where its
         * pids mean something; only for launchers that run commands in one.
         */
        default void killInside() {
            throw new UnsupportedOperationException("This launcher runs commands on the host; kill them by their host pids.");
        }
    }
}
