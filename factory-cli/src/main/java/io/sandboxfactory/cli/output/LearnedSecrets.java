package io.sandboxfactory.cli.output;

import io.sandboxfactory.core.session.Redaction;

import java.util.concurrent.atomic.AtomicReference;

/**
 * The secrets one invocation learned from the factories it used (the store's password, which the
 * config may name under any variable): its output is masked with them from then on. One per {@link
 * Console}; thread-safe.
 */
public final class LearnedSecrets {

    private final AtomicReference<Redaction> learned = new AtomicReference<>(Redaction.shapes());

    /** Masks {@code redaction}'s secrets too from now on. */
    public void learn(Redaction redaction) {
        learned.updateAndGet(current -> current.and(redaction));
    }

    /** Everything learned so far, and token shapes. */
    public Redaction redaction() {
        return learned.get();
    }
}
