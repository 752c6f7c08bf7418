package io.sandboxfactory.provider.kubernetes;

import io.fabric8.kubernetes.client.dsl.ExecWatch;
import io.sandboxfactory.api.files.FileTransferSandbox;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.provider.support.RemoteFiles;
import io.sandboxfactory.api.files.PathOutsideRootException;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.SandboxExecTransportException;
import io.sandboxfactory.api.files.SandboxFileException;
import io.sandboxfactory.provider.support.TarEntries;
import io.sandboxfactory.provider.support.TarStream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The kubernetes provider's {@link FileTransferSandbox}: one exec of {@code tar} per copy, whatever
 * the number of files, the archive streamed over the exec's stdin or stdout (what {@code kubectl
 * cp} does). The image needs {@code tar}.
 *
 * <p>Exec over the websocket protocol cannot close stdin, so an upload relies on tar stopping at
 * the archive's end-of-archive blocks, which every tar does. Paths must lie under the root
 * (checked lexically here: the caller resolved them). Hard links in a downloaded archive are
 * delivered as the files they link to.
 */
final class PodFileTransfer implements RemoteFiles<String> {

    /** Exit statuses of the scripts below that mean "no such path". */
    private static final int NO_DIRECTORY = 102;
    private static final int NO_PATH = 103;
    private static final long TAR_WAIT_MINUTES = 30;
    /** GNU tar's default record: 20 blocks of 512 bytes. */
    private static final int RECORD = 10240;
    /** Records sent per write while the archive streams: 160 KiB. */
    private static final int RECORDS_PER_WRITE = 16;

    private static final String EXTRACT = "cd -- \"$1\" 2>/dev/null || exit " + NO_DIRECTORY + "; exec tar -xmf -";
    private static final String ARCHIVE = "cd -- \"$1\" 2>/dev/null || exit " + NO_DIRECTORY + "; [ -e \"$2\" ] || [ -h \"$2\" ]"
            + " || exit " + NO_PATH + "; exec tar -cf - -- \"$2\"";

    private final PodCommandRunner runner;
    private final String sessionId;

    /** Copies through {@code runner}'s execs, whose failures to open it classifies. */
    PodFileTransfer(PodCommandRunner runner) {
        this.runner = runner;
        this.sessionId = runner.sessionId();
    }

    @Override
    public void copyIn(String pod, String root, String directory, FileTransferSandbox.Source source) {
        requireUnder(root, directory);
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        // Entries owned by root (uid and gid 0), as extracting them as root makes them.
        TarStream tar = new TarStream(source, 0, 0);
        ExecWatch watch = open(pod, true, errors, "sandbox-factory-extract", directory);
        try (tar; watch) {
            OutputStream stdin = watch.getInput();
            try {
                // GNU tar reads a pipe in whole 10 KiB records and waits for the rest of a short one; stdin cannot
                // be closed here, so the last record is filled with zeros (after the end-of-archive blocks: ignored).
                // Only whole records are sent, the last one with its padding in one write: tar may end as soon as it
                // has read the end-of-archive blocks, and nothing may still be on its way then (a send to an exec
                // that already ended fails the copy).
                byte[] archive = new byte[RECORD * RECORDS_PER_WRITE];
                int held = 0;
                int n;
                while ((n = tar.read(archive, held, archive.length - held)) >= 0) {
                    held += n;
                    if (held == archive.length) {
                        stdin.write(archive, 0, held);
                        held = 0;
                    }
                }
                int padded = (held + RECORD - 1) / RECORD * RECORD;
                Arrays.fill(archive, held, padded, (byte) 0);
                stdin.write(archive, 0, padded);
                stdin.flush();
            } catch (IOException e) {
                if (tar.failure().isPresent()) {
                    throw tar.failure().get();
                }
                // tar stopped reading (it failed early, say on a directory where a file goes): its status says why.
            }
            check(await(watch, directory), errors, directory, "copy into");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void copyOut(String pod, String root, String path, FileTransferSandbox.Sink sink) {
        requireUnder(root, path);
        int slash = path.lastIndexOf('/');
        String parent = slash <= 0 ? "/" : path.substring(0, slash);
        String name = path.substring(slash + 1);
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        ExecWatch watch = open(pod, false, errors, "sandbox-factory-archive", parent, name);
        try (watch) {
            TarEntries.deliver(watch.getOutput(), path, sink, (original, into) -> copyOut(pod, root, original, into));
            // Drain what follows the end-of-archive blocks, so the status arrives.
            watch.getOutput().transferTo(OutputStream.nullOutputStream());
            check(await(watch, path), errors, path, "copy");
        } catch (IOException e) {
            // The exec may have ended with no archive at all (a missing path): its status says so.
            int status = statusIfEnded(watch);
            if (status > 0) {
                check(status, errors, path, "copy");
            }
            throw new SandboxExecTransportException("Lost the archive of " + path + " from sandbox '" + sessionId + "': "
                    + e.getMessage(), true, e);
        }
    }

    private ExecWatch open(String pod, boolean withInput, OutputStream errors, String... args) {
        String script = withInput ? EXTRACT : ARCHIVE;
        String[] argv = new String[3 + args.length];
        argv[0] = "/bin/sh";
        argv[1] = "-c";
        argv[2] = script;
        System.arraycopy(args, 0, argv, 3, args.length);
        return runner.exec(pod, "copy files", container -> withInput
                ? container.redirectingInput().writingOutput(OutputStream.nullOutputStream()).writingError(errors).exec(argv)
                : container.redirectingOutput().writingError(errors).exec(argv));
    }

    private int await(ExecWatch watch, String path) {
        try {
            return watch.exitCode().get(TAR_WAIT_MINUTES, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SandboxException(StandardErrorCode.INTERRUPTED, "Copying " + path + " in sandbox '" + sessionId + "' was interrupted.", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new SandboxExecTransportException("Lost the copy of " + path + " in sandbox '" + sessionId
                    + "'; some files may have been written: " + KubernetesFailures.message(e), true, e);
        }
    }

    private static int statusIfEnded(ExecWatch watch) {
        try {
            return watch.exitCode().get(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        } catch (ExecutionException | TimeoutException e) {
            return -1;
        }
    }

    private void check(int status, ByteArrayOutputStream errors, String path, String verb) {
        if (status == 0) {
            return;
        }
        String detail = errors.toString(StandardCharsets.UTF_8).strip();
        if (status == NO_DIRECTORY || status == NO_PATH) {
            throw new SandboxFileException(StandardErrorCode.FILE_NOT_FOUND, path, "Cannot " + verb + " " + path + " in sandbox '"
                    + sessionId + "': it does not exist.");
        }
        throw new SandboxFileException(StandardErrorCode.FILE_OPERATION_FAILED, path, "Cannot " + verb + " " + path + " in sandbox '"
                + sessionId + "': tar exited with " + status + (detail.isEmpty() ? "" : " (" + detail + ")") + ".");
    }

    private static void requireUnder(String root, String path) {
        String base = root.endsWith("/") ? root : root + "/";
        boolean under = path.equals(root) || path.startsWith(base);
        if (!under || ("/" + path + "/").contains("/../")) {
            throw new PathOutsideRootException(path, root, "it is not below the root");
        }
    }
}
