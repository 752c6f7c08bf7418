package io.sandboxfactory.core.session;

import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;

import java.util.List;
import java.util.Objects;

/**
 * Where a session lives inside its sandbox (design §5.2): the session root, each repository's
 * checkout at {@code <root>/<dir>} (in position order; the first is the session's own), and
 * the setup markers under {@code <root>/.mastra-sandbox}. Paths are inside the sandbox, not on the host.
 *
 * @param root absolute session root inside the sandbox
 * @param repositories the checkouts, first is the session's own repository
 */
public record SessionLayout(String root, List<Checkout> repositories) {

    /**
     * One repository's checkout.
     *
     * @param repository as the session named it
     * @param repoDir directory name under the root
     * @param path absolute path of the checkout inside the sandbox
     */
    public record Checkout(String repository, String repoDir, String path) {
    }

    public SessionLayout {
        Objects.requireNonNull(root, "root");
        repositories = List.copyOf(repositories);
        if (repositories.isEmpty()) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "A session layout needs at least one repository.");
        }
    }

    /** A repository and the directory it is checked out in. */
    public record Named(String repository, String dir) {
    }

    /** The layout of {@code repositories} under {@code root}. */
    public static SessionLayout of(String root, List<Named> repositories) {
        String base = root.length() > 1 && root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
        String prefix = base.equals("/") ? "" : base;
        return new SessionLayout(base, repositories.stream()
                .map(r -> new Checkout(r.repository(), r.dir(), prefix + "/" + r.dir()))
                .toList());
    }

    /** The session's own repository: the first. */
    public Checkout ownRepository() {
        return repositories.get(0);
    }
}
