package io.sandboxfactory.core.internal.channel;

import java.io.IOException;
import java.nio.channels.Channel;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.TimeUnit;

/** The files of a {@link HostChannel}: FIFOs, the client script, removal. */
final class ChannelFiles {

    private ChannelFiles() {
    }

    /**
     * The client: takes a free slot (a lock directory holding its pid, taken over when that process is
     * gone — by moving its pid file, which only one taker can do; a plain remove could take a lock
     * another client had just made, and two clients on one slot would read each other's answers), opens {@code down} before it sends the header (the factory reads the header only from a
     * client that will read the answer), sends the header line and standard input on {@code up}, and
     * copies {@code down} to standard output until the factory ends it. All slots busy: it waits up to
     * a minute for one. Standard input goes up with {@code dd}, which reads and writes what is there:
     * busybox {@code cat} loops on {@code sendfile}, and a {@code sendfile} from a TCP socket into a
     * pipe keeps the pipe locked while it waits for more bytes (seen on Linux 6.18), so the factory
     * could not read a request sent whole until the client's next bytes or its end.
     */
    static String clientScript(String name, int slots) {
        return """
                #!/bin/sh
                # Sandbox Factory channel client, written by the factory (HostChannel, BridgedChannel); do not edit.
                # Usage: sh connect HEADER... — standard input goes to the factory after one header line,
                # and its answer comes out on standard output.
                dir=$(dirname "$0")
                # Takes lock directory $1: made now, or left by a holder that died without removing it. Only one
                # process can move a dead holder's pid file away, and one that moved a live holder's (read as dead
                # while it was replaced) puts it back: two processes never hold one slot.
                take() {
                  mkdir "$1" 2>/dev/null && return 0
                  p=$(cat "$1/pid" 2>/dev/null)
                  case $p in ''|*[!0-9]*) return 1 ;; esac
                  ! kill -0 "$p" 2>/dev/null || return 1
                  mv "$1/pid" "$1/pid.$$" 2>/dev/null || return 1
                  if [ "$(cat "$1/pid.$$" 2>/dev/null)" != "$p" ]; then
                    mv "$1/pid.$$" "$1/pid" 2>/dev/null
                    return 1
                  fi
                  rm -f "$1/pid.$$"
                }
                tries=0
                while :; do
                  k=0
                  while [ "$k" -lt %d ]; do
                    lock="${TMPDIR:-/tmp}/.sandbox-factory-%s-$k"
                    if take "$lock"; then
                      # Written whole, then renamed: a half-written pid would read as a dead holder.
                      echo "$$" >"$lock/pid.new" && mv "$lock/pid.new" "$lock/pid"
                      trap 'rm -rf "$lock"' EXIT
                      trap 'exit 1' INT TERM HUP
                      if [ ! -p "$dir/s$k.down" ]; then
                        # No FIFO at all: nothing serves the directory. This slot's alone: it is being renewed, so busy.
                        ls "$dir"/s*.down >/dev/null 2>&1 || { echo "sandbox-factory: nothing serves $dir (is the factory running?)" >&2; exit 1; }
                        rm -rf "$lock"; trap - EXIT
                        k=$((k + 1))
                        continue
                      fi
                      exec 4<"$dir/s$k.down" 3<&0
                      # dd, not cat: busybox cat's sendfile from a socket keeps the FIFO locked while it waits for more.
                      { printf '%%s\\n' "$*"; exec dd bs=65536 status=none <&3; } >"$dir/s$k.up" &
                      cat <&4
                      kill "$!" 2>/dev/null
                      exit 0
                    fi
                    k=$((k + 1))
                  done
                  tries=$((tries + 1))
                  [ "$tries" -lt 600 ] || { echo "sandbox-factory: every connection of $dir is busy" >&2; exit 1; }
                  sleep 0.1
                done
                """.formatted(slots, name);
    }

    /** Makes a FIFO every user may open (the sandbox's user is not the factory's). */
    static void mkfifo(Path path) throws IOException {
        Process process = new ProcessBuilder("mkfifo", "-m", "0666", "--", path.toString()).redirectErrorStream(true).start();
        try {
            String output = new String(process.getInputStream().readAllBytes());
            if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IOException("mkfifo " + path + " failed: " + output.strip());
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while making " + path, e);
        }
    }

    /** Removes what {@code directory} holds (no link followed), keeping the directory. */
    static void deleteContents(Path directory) throws IOException {
        if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(directory, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                if (!dir.equals(directory)) {
                    Files.delete(dir);
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /** Removes the FIFOs of {@code directory}, keeping the client script. */
    static void deleteFifos(Path directory) throws IOException {
        try (var files = Files.list(directory)) {
            for (Path file : files.toList()) {
                if (Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isOther()) {
                    Files.delete(file);
                }
            }
        }
    }

    static void closeQuietly(Channel channel) {
        if (channel == null) {
            return;
        }
        try {
            channel.close();
        } catch (IOException e) {
            // Nothing left to do with it.
        }
    }
}
