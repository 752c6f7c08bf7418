package io.sandboxfactory.provider.docker;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything needed to create the container of one session: decided when the sandbox instance is
 * made, used only if no container exists yet.
 *
 * @param name the container name ({@link ContainerNames#forSession})
 * @param image the image to run
 * @param labels all labels, ours included
 * @param networkMode the container network
 * @param workingDirectory the default working directory, created with the container
 * @param nanoCpus CPU limit in billionths of a CPU, when limited
 * @param memoryBytes memory limit, when limited
 * @param init whether Docker's init runs as PID 1
 * @param mounts host directories mounted into the container
 * @param user who commands run as; the working directory is made theirs at creation
 * @param capAdd capabilities given back after dropping all
 * @param pidsLimit the most processes the container may hold
 * @param readOnlyRootFilesystem whether the image's files are read-only (the working directory is
 *     then a volume of the container, {@code /tmp} a tmpfs)
 * @param runtime the engine runtime; empty means the engine's default
 */
record ContainerSpec(
        String name,
        String image,
        Map<String, String> labels,
        String networkMode,
        String workingDirectory,
        Optional<Long> nanoCpus,
        Optional<Long> memoryBytes,
        boolean init,
        List<BindMount> mounts,
        ContainerUser user,
        List<String> capAdd,
        long pidsLimit,
        boolean readOnlyRootFilesystem,
        Optional<String> runtime) {

    ContainerSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(image, "image");
        labels = Map.copyOf(labels);
        Objects.requireNonNull(networkMode, "networkMode");
        Objects.requireNonNull(workingDirectory, "workingDirectory");
        Objects.requireNonNull(nanoCpus, "nanoCpus");
        Objects.requireNonNull(memoryBytes, "memoryBytes");
        mounts = List.copyOf(mounts);
        Objects.requireNonNull(user, "user");
        capAdd = List.copyOf(capAdd);
        Objects.requireNonNull(runtime, "runtime");
    }
}
