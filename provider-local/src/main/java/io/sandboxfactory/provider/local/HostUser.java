package io.sandboxfactory.provider.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The user this JVM runs as, for the synthesized {@code /etc/passwd} and {@code /etc/group} of an
 * isolated session: tools (git, ssh, whoami) want their user to exist, but the host's user list is
 * none of a session's business.
 *
 * @param name the user's name ({@code user.name})
 * @param uid its numeric id
 * @param gid its primary group's numeric id
 * @param groupName that group's name (from the host's {@code /etc/group}, else the user's name)
 */
record HostUser(String name, int uid, int gid, String groupName) {

    static HostUser current() {
        String name = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
        int uid = attribute("unix:uid");
        int gid = attribute("unix:gid");
        return new HostUser(name, uid, gid, groupName(gid).orElse(name));
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
