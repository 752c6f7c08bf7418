package io.sandboxfactory.api;

import static org.assertj.core.api.Assertions.fail;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One action on a thread of its own, with its outcome kept for the test. Lets a test observe
 * where the thread waits (state and stack, never elapsed time) and collect what it threw.
 */
final class Spawned {

    /** An action that may throw anything. */
    @FunctionalInterface
    interface Action {
        void run() throws Exception;
    }

    private final Thread thread;
    private final CompletableFuture<Void> outcome = new CompletableFuture<>();

    private Spawned(String name, Action action) {
        this.thread = new Thread(() -> {
            try {
                action.run();
                outcome.complete(null);
            } catch (Throwable t) {
                outcome.completeExceptionally(t);
            }
        }, name);
        thread.setDaemon(true);
    }

    static Spawned start(String name, Action action) {
        Spawned spawned = new Spawned(name, action);
        spawned.thread.start();
        return spawned;
    }

    Thread thread() {
        return thread;
    }

    /** Waits for the action to end and returns what it threw, or null when it returned normally. */
    Throwable failure() throws InterruptedException {
        try {
            outcome.get(Waits.SECONDS, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (TimeoutException e) {
            throw new AssertionError(thread.getName() + " did not finish: a deadlock?" + stack());
        }
    }

    /** Waits for the action to end and fails the test when it threw. */
    void awaitSuccess() throws InterruptedException {
        Throwable failure = failure();
        if (failure != null) {
            throw new AssertionError(thread.getName() + " failed", failure);
        }
    }

    /**
     * Waits until the thread is parked (WAITING) with {@code MastraSandbox.<method>} on its stack,
     * i.e. it called that public method and now waits for another thread's transition. A state
     * check, so the test knows the thread joined rather than guessing with a sleep.
     */
    void awaitParkedIn(String method) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Waits.SECONDS);
        while (!parkedIn(method)) {
            if (outcome.isDone()) {
                fail(thread.getName() + " finished instead of waiting in MastraSandbox." + method);
            }
            if (System.nanoTime() > deadline) {
                fail(thread.getName() + " never waited in MastraSandbox." + method + stack());
            }
            Thread.sleep(1);
        }
    }

    /** {@link #awaitParkedIn} for every one of {@code spawned} except the thread {@code owner}. */
    static void awaitAllParkedIn(List<Spawned> spawned, Thread owner, String method) throws InterruptedException {
        for (Spawned one : spawned) {
            if (one.thread != owner) {
                one.awaitParkedIn(method);
            }
        }
    }

    private boolean parkedIn(String method) {
        Thread.State state = thread.getState();
        if (state != Thread.State.WAITING && state != Thread.State.TIMED_WAITING) {
            return false;
        }
        for (StackTraceElement frame : thread.getStackTrace()) {
            if (frame.getClassName().equals(MastraSandbox.class.getName()) && frame.getMethodName().equals(method)) {
                return true;
            }
        }
        return false;
    }

    private String stack() {
        StringBuilder text = new StringBuilder();
        for (StackTraceElement frame : thread.getStackTrace()) {
            text.append("\n\tat ").append(frame);
        }
        return text.toString();
    }
}
