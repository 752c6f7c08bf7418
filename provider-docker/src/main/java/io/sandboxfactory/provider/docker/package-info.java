/**
 * The {@code docker} sandbox provider: one Docker container per session, found by a name derived
 * from the session id and checked by labels, created on first start, stopped and removed with the
 * session. Commands run through the Engine API (exec-create, exec-start, exec-inspect) under a small
 * wrapper that lets a timeout kill the whole process tree inside the container.
 *
 * <p>Entry point: {@link io.sandboxfactory.provider.docker.DockerSandboxProvider}, registered for
 * {@link java.util.ServiceLoader}; configuration: {@link
 * io.sandboxfactory.provider.docker.DockerProviderConfig}.
 */
package io.sandboxfactory.provider.docker;
