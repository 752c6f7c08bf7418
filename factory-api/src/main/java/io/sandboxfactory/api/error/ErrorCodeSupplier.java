package io.sandboxfactory.api.error;

/**
 * What an exception takes as its code: an enum of a module's codes implements it, as Trino's
 * {@code ErrorCodeSupplier} does. A provider or a store lists its own enum's values in {@code
 * errorCodes()}, so discovery rejects a name another module already uses and {@code
 * docs/errors.md} lists them.
 *
 * @since 0.1.0
 */
public interface ErrorCodeSupplier {

    /** The code. */
    ErrorCode toErrorCode();
}
