package io.sandboxfactory.api.host;

/**
 * Mints {@link RepositoryAccess} on demand, so every start gets a fresh token. Called from the
 * start hook; may block briefly (a token exchange) and may throw to fail the start.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface RepositoryAccessSource {

    RepositoryAccess mint();
}
