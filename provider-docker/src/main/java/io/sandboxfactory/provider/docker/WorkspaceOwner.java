package io.sandboxfactory.provider.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Volume;
import io.sandboxfactory.api.files.FileTransferSandbox;
import io.sandboxfactory.api.files.TransferEntry;
import io.sandboxfactory.provider.support.TarStream;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Makes a new container's working directory belong to its user before the container starts, on
 * any image and without giving the container a capability: the engine's archive API extracts a
 * directory entry whose header names the user, and the engine (root) keeps that owner.
 *
 * <p>The working directory lies in the container's own files, so the entry is extracted at
 * {@code /}. With a read-only root file system that is refused, and the working directory is a
 * volume of the container: then a helper container, created and never started, mounts that volume
 * and takes the entry at its mount point; the helper is removed at once, the volume stays with the
 * session's container. (An entry for the extraction directory itself, {@code ./}, is left alone by
 * the engine, so the volume cannot be reached from the session's own container.)
 */
final class WorkspaceOwner {

    /** Where the helper container mounts the session's volume. */
    static final String HELPER_MOUNT = "/sf-volume";

    private WorkspaceOwner() {
    }

    /** Gives {@code spec}'s working directory in the created container {@code containerId} to {@code spec}'s user. */
    static void apply(DockerClient client, DockerFileTransfer files, String containerId, ContainerSpec spec) throws IOException {
        ContainerUser user = spec.user();
        String relative = spec.workingDirectory().replaceAll("^/+|/+$", "");
        if (relative.isEmpty()) {
            return; // The working directory is / itself: never hand the root over.
        }
        if (!spec.readOnlyRootFilesystem()) {
            put(files, containerId, relative, user);
            return;
        }
        String volume = volumeAt(client.inspectContainerCmd(containerId).exec(), spec.workingDirectory());
        Map<String, String> labels = new LinkedHashMap<>(spec.labels());
        labels.remove(SandboxLabels.SESSION);
        String helper = client.createContainerCmd(spec.image())
                .withLabels(labels)
                .withEntrypoint("/bin/sh")
                .withCmd(List.of())
                                .withHostConfig(HostConfig.newHostConfig().withNetworkMode("none").withBinds(new Bind(volume, new Volume(HELPER_MOUNT))))
                .exec()
                .getId();
        try {
            put(files, helper, HELPER_MOUNT.substring(1), user);
        } finally {
            // The volume belongs to the session's container: remove only the helper.
            client.removeContainerCmd(helper).withForce(true).withRemoveVolumes(false).exec();
        }
    }

    /** The name of the volume {@code container} mounts at {@code path}. */
    private static String volumeAt(InspectContainerResponse container, String path) {
        if (container.getMounts() != null) {
            for (InspectContainerResponse.Mount mount : container.getMounts()) {
                if (mount.getDestination() != null && path.equals(mount.getDestination().getPath()) && mount.getName() != null) {
                    return mount.getName();
                }
            }
        }
        throw new IllegalStateException("the container has no volume at " + path);
    }

    /** Extracts the directory entry {@code relative} (to {@code /}), owned by {@code user}, mode 0755. */
    private static void put(DockerFileTransfer files, String containerId, String relative, ContainerUser user) throws IOException {
        TransferEntry entry = TransferEntry.directory(relative, 0755);
        FileTransferSandbox.Source source = new FileTransferSandbox.Source() {
            @Override
            public List<TransferEntry> entries() {
                return List.of(entry);
            }

            @Override
            public InputStream open(TransferEntry file) {
                throw new UncheckedIOException(new IOException("a directory has no content"));
            }
        };
        try (TarStream tar = new TarStream(source, user.uid(), user.gid())) {
            files.put(containerId, "/", tar);
        }
    }
}
