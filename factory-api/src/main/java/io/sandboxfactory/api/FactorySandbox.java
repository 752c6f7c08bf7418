package io.sandboxfactory.api;

import io.sandboxfactory.api.capability.SandboxTemplate;
import io.sandboxfactory.api.capability.TemplateBuild;
import java.util.List;
import java.util.Set;

/**
 * A configured provider instance: makes the sandbox of a session.
 *
 * <p>Guarantees every implementation must keep (the TCK checks them): {@link #create} is cheap and
 * side-effect free, nothing is provisioned before {@code start()}; sandboxes created for the same
 * session id reach the same physical sandbox (id-keyed get-or-create); {@link #capabilities()}
 * tells the truth. Its name is the one {@link SandboxProvider#name()} declares; the framework
 * keeps it, so neither this instance nor its sandboxes repeat it.
 *
 * @since 0.1.0
 */
public interface FactorySandbox extends AutoCloseable {

    /** A new, unstarted sandbox instance for the session in {@code ctx}. */
    MastraSandbox<?> create(FactorySandboxContext ctx);

    /** What this provider's sandboxes can do. */
    Set<SandboxCapability> capabilities();

    /**
     * Snapshots the set-up sandbox {@code build.source()} as the template {@code build.name()}
     * (providers declaring {@link SandboxCapability#TEMPLATES}). The template holds the session's
     * files, setup markers included; it is listed only once complete.
     */
    default SandboxTemplate buildTemplate(TemplateBuild build) {
        throw new UnsupportedOperationException("This sandbox provider does not support templates.");
    }

    /** Every complete template this provider instance holds, in no particular order. */
    default List<SandboxTemplate> listTemplates() {
        return List.of();
    }

    /** Removes the template named {@code name}; idempotent. The name must obey {@link SandboxTemplate#requireValidName}. */
    default void removeTemplate(String name) {
        throw new UnsupportedOperationException("This sandbox provider does not support templates.");
    }

    /**
     * The isolation this instance's sandboxes get, in one word that {@code status}, {@code list},
     * {@code providers} and {@code --json} show: what holds between a session's commands and the host
     * and other sessions. The bundled providers say {@code namespaces} or {@code none} (local),
     * {@code docker/<runtime>} (docker, for example {@code docker/runc} or {@code docker/runsc}) and
     * {@code kubernetes/<runtime class>} ({@code kubernetes/default} without one). A provider that
     * does not override this says {@code unreported}: claim nothing you do not enforce.
     */
    default String isolation() {
        return "unreported";
    }

    /** Releases clients and threads held by this instance. Does not touch any sandbox. */
    @Override
    default void close() {
    }
}
