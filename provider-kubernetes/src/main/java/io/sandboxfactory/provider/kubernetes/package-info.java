/**
 * The {@code kubernetes} provider: one pod per session, its workspace on a PersistentVolumeClaim of
 * its own, commands through the API server's exec, files by tar over exec. See {@link
 * io.sandboxfactory.provider.kubernetes.KubernetesSandboxProvider}.
 */
package io.sandboxfactory.provider.kubernetes;
