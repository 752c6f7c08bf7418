package io.sandboxfactory.core.internal.retire;

import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.retire.RetireResult;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * Runs one retirement per session id, a bounded number at a time, on threads of its own that end
 * with the batch; a retirement that throws or is interrupted becomes a {@code FAILED} result of its
 * session, so one failure never stops the others.
 */
final class RetirementBatch {

    private RetirementBatch() {
    }

    /** Fails with {@code INVALID_ARGUMENT} unless {@code parallelism} is at least 1. */
    static void requireParallelism(int parallelism) {
        if (parallelism < 1) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Parallelism " + parallelism + " is invalid; it must be at least 1.");
        }
    }

    /** {@code retire} applied to each of {@code sessionIds}, at most {@code parallelism} at once; results in the order given. */
    static List<RetireResult> run(List<String> sessionIds, int parallelism, Function<String, RetireResult> retire) {
        requireParallelism(parallelism);
        if (sessionIds.isEmpty()) {
            return List.of();
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(parallelism, sessionIds.size()), r -> {
            Thread t = new Thread(r, "session-retirement");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<RetireResult>> running = new ArrayList<>();
            for (String id : sessionIds) {
                running.add(pool.submit(() -> retire.apply(id)));
            }
            List<RetireResult> results = new ArrayList<>();
            for (int i = 0; i < running.size(); i++) {
                results.add(await(running.get(i), sessionIds.get(i)));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    private static RetireResult await(Future<RetireResult> result, String sessionId) {
        try {
            return result.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new RetireResult(sessionId, RetireResult.Outcome.FAILED, List.of("interrupted"));
        } catch (ExecutionException e) {
            return new RetireResult(sessionId, RetireResult.Outcome.FAILED, List.of(String.valueOf(e.getCause().getMessage())));
        }
    }
}
