package io.sandboxfactory.core.internal.gateway;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The gateway's {@code pre-receive} hook, run by {@code git receive-pack} on the host's mirror: it
 * refuses the whole push, with one line naming the allowed refs, when any update is outside the
 * session's {@link PushRule}; otherwise it pushes the updates upstream first (with the token, on the
 * host), each guarded by a lease on the value the client saw, and the mirror takes them only when
 * upstream did. The upstream remote has no fetch refspec, so the push updates no ref of the mirror
 * while its objects are still quarantined.
 */
final class GatewayHooks {

    static final String PRE_RECEIVE = """
            #!/bin/sh
            # Sandbox Factory Git gateway (written by the factory; see GatewayHooks).
            z=0000000000000000000000000000000000000000
            allowed="refs/heads/$SF_PUSH_BRANCH"
            [ -z "$SF_PUSH_NAMESPACE" ] || allowed="$allowed and refs/heads/$SF_PUSH_NAMESPACE/*"
            updates=$(cat)
            leases=""
            specs=""
            for line in $(printf '%s\\n' "$updates" | tr ' ' ','); do
              old=${line%%,*}; rest=${line#*,}; new=${rest%%,*}; ref=${rest#*,}
              case "$ref" in
                "refs/heads/$SF_PUSH_BRANCH") ;;
                "refs/heads/$SF_PUSH_NAMESPACE/"?*) [ -n "$SF_PUSH_NAMESPACE" ] || ref_denied=$ref ;;
                *) ref_denied=$ref ;;
              esac
              if [ -n "$ref_denied" ]; then
                echo "sandbox-factory gateway: refused $ref_denied; this session may push only $allowed" >&2
                exit 1
              fi
              if [ "$new" = "$z" ]; then
                leases="$leases --force-with-lease=$ref:$old"; specs="$specs :$ref"
              elif [ "$old" = "$z" ]; then
                leases="$leases --force-with-lease=$ref:"; specs="$specs $new:$ref"
              else
                leases="$leases --force-with-lease=$ref:$old"; specs="$specs +$new:$ref"
              fi
            done
            [ -n "$specs" ] || exit 0
            # Ref names hold no spaces or glob characters (git check-ref-format), so the lists split safely.
            exec git push --quiet $leases upstream $specs
            """;

    private GatewayHooks() {
    }

    /** Writes the hooks into {@code directory} (made if missing), for {@code core.hooksPath}. */
    static Path write(Path directory) throws IOException {
        Files.createDirectories(directory);
        Path hook = directory.resolve("pre-receive");
        Path partial = directory.resolve(".pre-receive.partial");
        Files.writeString(partial, PRE_RECEIVE, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(partial, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.move(partial, hook, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        return directory;
    }
}
