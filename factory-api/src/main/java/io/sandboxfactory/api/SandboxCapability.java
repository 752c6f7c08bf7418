package io.sandboxfactory.api;

import io.sandboxfactory.api.capability.AttachableSandbox;
import io.sandboxfactory.api.capability.StreamingSandbox;
import io.sandboxfactory.api.files.FileTransferSandbox;
import io.sandboxfactory.api.capability.SandboxInventory;
import io.sandboxfactory.api.capability.SandboxTemplate;
import io.sandboxfactory.api.support.Sandboxes;

/**
 * Capabilities a {@link FactorySandbox} declares beyond running commands, which every sandbox
 * does ({@link ExecutableSandbox#executeCommand}). The TCK checks them against behaviour.
 *
 * @since 0.1.0
 */
public enum SandboxCapability {
    /** Files written before {@code stop()} are still there after the next {@code start()}. */
    FILES_SURVIVE_STOP,
    /** A fresh instance for the same session id, in another process, reaches the same physical sandbox. */
    RECONNECT_ACROSS_PROCESSES,
    /** CPU and memory limits from {@link SandboxResources} are enforced. */
    RESOURCE_LIMITS,
    /** The sandbox has no network unless configured. */
    NETWORK_ISOLATION,
    /** Sandboxes implement {@code FileTransferSandbox} for fast file access. */
    FILE_TRANSFER,
    /** The factory implements {@link SandboxInventory}: its sandboxes can be listed and removed for sweeps. */
    INVENTORY,
    /**
     * The factory builds, lists and removes {@link SandboxTemplate}s ({@link FactorySandbox#buildTemplate},
     * {@link FactorySandbox#listTemplates}, {@link FactorySandbox#removeTemplate}) and makes a new
     * sandbox from {@link FactorySandboxContext#template()} when one is given.
     */
    TEMPLATES,
    /**
     * A new sandbox sees the host directories in {@link FactorySandboxContext#hostDirectories()}
     * read-only at the same paths (the local provider sees the whole host; the docker provider
     * bind-mounts them when its engine is on this host). The host's git object cache relies on it.
     */
    HOST_DIRECTORIES,
    /**
     * Sandboxes implement {@link AttachableSandbox}: they describe the host process that gives a
     * person an interactive shell in them ({@code factory shell}).
     */
    ATTACH,
    /**
     * Sandboxes implement {@link StreamingSandbox}: a program in them can be reached through its
     * standard input and output as byte streams (the factory's Git gateway and egress channel use it
     * where a sandbox cannot open a host FIFO).
     */
    STREAMS
}
