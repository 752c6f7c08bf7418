package io.sandboxfactory.provider.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The user this JVM runs as, for the synthesized {@code /etc/passwd} and {@code /etc/group} of an
 * isolated session: tools (git, ssh, whoami) want their user to exist, but the host's user list is
 * none of a session's business.
 *
 * @param name the user's name ({@code user.name})
 * @param uid its numeric id
 * @param gid its primary group's numeric id
 * @param groupName that group's name (from the host's {@code /etc/group}, else the user's name)
 * @param gitIdentity the user's git {@code user.name} and {@code user.email} on the host, when both are
 *     set: an isolated session's private {@code HOME} starts with them, so its commits carry the same
 *     author as without isolation (the host's {@code ~/.gitconfig}, with its credential helpers and
 *     URL rewrites, stays out)
 */
record HostUser(String name, int uid, int gid, String groupName, Optional<GitIdentity> gitIdentity) {

    /** A git author: the values of {@code user.name} and {@code user.email}. */
    record GitIdentity(String name, String email) {

        /** A {@code .gitconfig} holding only this identity; quotes, backslashes and line breaks cannot escape its values. */
        String gitconfig() {
            return "[user]\n\tname = " + quoted(name) + "\n\temail = " + quoted(email) + "\n";
        }

        private static String quoted(String value) {
            return "\"" + value.replaceAll("[\\r\\n\\x00]", " ").replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
        }
    }

    static HostUser current() {
        String name = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
        int uid = attribute("unix:uid");
        int gid = attribute("unix:gid");
        return new HostUser(name, uid, gid, groupName(gid).orElse(name), hostGitIdentity());
    }

    /** The host user's git identity as {@code git config --global} reads it; empty without git or without both values. */
    private static Optional<GitIdentity> hostGitIdentity() {
        Optional<String> name = gitConfig("user.name");
        Optional<String> email = gitConfig("user.email");
        return name.isPresent() && email.isPresent() ? Optional.of(new GitIdentity(name.get(), email.get())) : Optional.empty();
    }

    private static Optional<String> gitConfig(String key) {
        try {
            Process git = new ProcessBuilder("git", "config", "--global", "--get", key).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            git.getOutputStream().close();
            String value = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return git.waitFor() == 0 && !value.isEmpty() ? Optional.of(value) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    String passwdLine(Path home) {
        return name + ":x:" + uid + ":" + gid + ":" + name + ":" + home + ":/bin/sh\n";
    }

    String groupLine() {
        return groupName + ":x:" + gid + ":\n";
    }

    private static int attribute(String name) {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), name);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return 0;
        }
    }

    private static java.util.Optional<String> groupName(int gid) {
        try {
            List<String> lines = Files.readAllLines(Path.of("/etc/group"), StandardCharsets.UTF_8);
            return lines.stream().map(l -> l.split(":", -1)).filter(f -> f.length > 2 && f[2].equals(Integer.toString(gid)))
                    .map(f -> f[0].replaceAll("[^A-Za-z0-9._-]", "_")).findFirst();
        } catch (IOException e) {
            return java.util.Optional.empty();
        }
    }
}
