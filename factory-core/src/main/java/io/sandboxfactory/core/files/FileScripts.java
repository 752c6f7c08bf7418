package io.sandboxfactory.core.files;

import io.sandboxfactory.api.support.Sandboxes;

import java.util.List;

/**
 * The POSIX shell scripts behind every file operation, written for both GNU coreutils and BusyBox
 * (only {@code sh}, {@code realpath}, {@code readlink}, {@code stat -c}, {@code base64}, {@code
 * mkdir}, {@code mv}, {@code rm}, {@code rmdir}, {@code ln}, {@code chmod}, {@code ls}, {@code
 * xargs}).
 *
 * <p>Every script starts with {@link #PRELUDE}: {@code sf_canon} resolves an absolute path the way
 * the kernel would (every symbolic link followed, dangling ones included, up to 40), appending the
 * part that does not exist yet; {@code sf_confine} fails with {@link #OUTSIDE} unless the result
 * lies under the canonical root (printing {@code input NUL resolved} on stderr), so a symbolic link
 * can never lead an operation out of the root.
 * The operation then works on the canonical path. Exit codes below 16 are the scripts' own
 * verdicts; a failing tool exits 1 with its message on stderr.
 */
final class FileScripts {

    static final int OUTSIDE = 3;
    static final int NOT_FOUND = 4;
    static final int NOT_A_DIRECTORY = 5;
    static final int IS_A_DIRECTORY = 6;
    static final int NOT_EMPTY = 7;
    static final int ROOT_MISSING = 9;
    static final int LINK_LOOP = 10;
    static final int NOT_A_REGULAR_FILE = 11;
    static final int CHANGED = 12;

    /** Positional parameters: {@code $1} is always the root; the operation's own start at {@code $2}. */
    static final String PRELUDE = """
            sf_fail() { printf '%s' "$2" >&2; exit "$1"; }
            sf_canon() {
              sf_t=$1; sf_n=0
              while :; do
                sf_a=$sf_t; sf_s=
                while [ ! -e "$sf_a" ] && [ ! -L "$sf_a" ]; do
                  sf_s=/${sf_a##*/}$sf_s; sf_a=${sf_a%/*}; [ -n "$sf_a" ] || sf_a=/
                done
                if [ -L "$sf_a" ] && [ ! -e "$sf_a" ]; then
                  sf_n=$((sf_n + 1)); [ "$sf_n" -le 40 ] || sf_fail 10 "$1"
                  sf_l=$(readlink "$sf_a" && echo .) || sf_fail 1 "cannot read the symbolic link $sf_a"
                  sf_l=${sf_l%?}; sf_l=${sf_l%?}
                  case $sf_l in /*) sf_t=$sf_l$sf_s ;; *) sf_t=${sf_a%/*}/$sf_l$sf_s ;; esac
                  continue
                fi
                sf_r=$(realpath "$sf_a" && echo .) || sf_fail 1 "cannot resolve $sf_a"
                sf_r=${sf_r%?}; sf_r=${sf_r%?}
                case $sf_r in /) sf_r=$sf_s ;; *) sf_r=$sf_r$sf_s ;; esac
                [ -n "$sf_r" ] || sf_r=/
                return 0
              done
            }
            sf_outside() { printf '%s\\0%s' "$1" "$sf_r" >&2; exit 3; }
            sf_confine() {
              sf_canon "$1"
              case /$sf_s/ in */../*) sf_outside "$1" ;; esac
              case $sf_root in /) ;; *) case $sf_r in "$sf_root"|"$sf_root"/*) ;; *) sf_outside "$1" ;; esac ;; esac
              sf_t=$sf_r
            }
            sf_entry() {
              sf_confine "$1"
              case $sf_t in /) sf_e=/$2 ;; *) sf_e=$sf_t/$2 ;; esac
            }
            sf_canon "$1"; sf_root=$sf_r
            [ -d "$sf_root" ] || sf_fail 9 "$1"
            """;

    /** {@code $2}: path. Prints {@code root NUL canonical NUL type} with type d, f, o (other) or m (missing). */
    static final String RESOLVE = """
            sf_confine "$2"
            printf '%s\\0%s\\0' "$sf_root" "$sf_t"
            if [ -d "$sf_t" ]; then printf d; elif [ -f "$sf_t" ]; then printf f; elif [ -e "$sf_t" ]; then printf o; else printf m; fi
            """;

    /** {@code $2}: path. Prints the size, a newline, then the content in base64. */
    static final String READ = """
            sf_confine "$2"
            [ -e "$sf_t" ] || sf_fail 4 "$2"
            [ -d "$sf_t" ] && sf_fail 6 "$2"
            [ -f "$sf_t" ] || sf_fail 11 "$2"
            sf_z=$(stat -c %s "$sf_t") || exit 1
            printf '%s\\n' "$sf_z"
            base64 < "$sf_t" || exit 1
            """;

    /*
     * The write family shares its positional parameters: $2 target path, $3 token naming the
     * temporary file, $4 octal mode or empty (keep the replaced file's mode), $5 the temporary file
     * once PREPARE_WRITE has made it.
     */

    /**
     * Creates the target's parents and an empty temporary file {@code .sf-<token>} beside the
     * target; prints {@code root NUL canonical-target NUL temp NUL}.
     */
    static final String PREPARE_WRITE = """
            sf_confine "$2"
            [ -d "$sf_t" ] && sf_fail 6 "$2"
            sf_dir=${sf_t%/*}; [ -n "$sf_dir" ] || sf_dir=/
            [ -d "$sf_dir" ] || mkdir -p "$sf_dir" || exit 1
            case $sf_dir in /) sf_tmp=/.sf-$3 ;; *) sf_tmp=$sf_dir/.sf-$3 ;; esac
            : > "$sf_tmp" || exit 1
            printf '%s\\0%s\\0%s\\0' "$sf_root" "$sf_t" "$sf_tmp"
            """;

    /** Appends the chunk in the {@code SF_D*} variables to {@code $sf_tmp}; removes it on failure. */
    static final String APPEND_TO_TEMP = """
            sf_data | base64 -d >> "$sf_tmp" || { rm -f "$sf_tmp"; exit 1; }
            """;

    /** Re-confines the temporary file {@code $5} for {@link #APPEND_TO_TEMP} and {@link #FINISH_WRITE}. */
    static final String REOPEN_TEMP = """
            sf_confine "$5"; sf_tmp=$sf_t
            [ -f "$sf_tmp" ] || sf_fail 12 "$2"
            """;

    /** Renames {@code $sf_tmp} over the re-resolved target, which must still be in the same directory. */
    static final String FINISH_WRITE = """
            sf_confine "$2"
            [ "${sf_t%/*}" = "${sf_tmp%/*}" ] || { rm -f "$sf_tmp"; sf_fail 12 "$2"; }
            [ -d "$sf_t" ] && { rm -f "$sf_tmp"; sf_fail 6 "$2"; }
            if [ -n "$4" ]; then chmod "$4" "$sf_tmp" || { rm -f "$sf_tmp"; exit 1; }
            elif [ -e "$sf_t" ]; then sf_m=$(stat -c %a "$sf_t") && chmod "$sf_m" "$sf_tmp"; fi
            mv -f "$sf_tmp" "$sf_t" || { rm -f "$sf_tmp"; exit 1; }
            """;

    /** Removes the temporary file {@code $5} (best effort after a failed write). */
    static final String DISCARD_TEMP = """
            sf_confine "$5"
            rm -f "$sf_t"
            """;

    /** {@code $2}: path. Appends the chunk in the {@code SF_D*} variables, creating the file and its parents. */
    static final String APPEND = """
            sf_confine "$2"
            [ -d "$sf_t" ] && sf_fail 6 "$2"
            [ -e "$sf_t" ] && { [ -f "$sf_t" ] || sf_fail 11 "$2"; }
            sf_dir=${sf_t%/*}; [ -n "$sf_dir" ] || sf_dir=/
            [ -d "$sf_dir" ] || mkdir -p "$sf_dir" || exit 1
            sf_data | base64 -d >> "$sf_t" || exit 1
            """;

    /**
     * {@code $2}: directory. Prints every entry name followed by NUL, one more NUL, then one line
     * {@code <raw mode hex> <size> <mtime seconds> <name>} per entry (not following links).
     */
    static final String LIST = """
            sf_confine "$2"
            [ -e "$sf_t" ] || sf_fail 4 "$2"
            [ -d "$sf_t" ] || sf_fail 5 "$2"
            cd "$sf_t" || exit 1
            set --
            for sf_f in * .[!.]* ..?*; do
              if [ -e "$sf_f" ] || [ -L "$sf_f" ]; then set -- "$@" "$sf_f"; fi
            done
            [ $# -gt 0 ] || exit 0
            printf '%s\\0' "$@"; printf '\\0'
            printf '%s\\0' "$@" | xargs -0 stat -c '%f %s %Y %n' --
            """;

    /** {@code $2}: path. Prints {@code <raw mode hex> <size> <mtime seconds>} of the resolved path. */
    static final String STAT = """
            sf_confine "$2"
            [ -e "$sf_t" ] || sf_fail 4 "$2"
            stat -c '%f %s %Y' "$sf_t" || exit 1
            """;

    /** {@code $2}: path. Creates the directory and its parents (fine when it exists), then answers like {@link #RESOLVE}. */
    static final String MKDIRS = """
            sf_confine "$2"
            if [ -e "$sf_t" ]; then [ -d "$sf_t" ] || sf_fail 5 "$2"; else mkdir -p "$sf_t" || exit 1; fi
            printf '%s\\0%s\\0d' "$sf_root" "$sf_t"
            """;

    /**
     * {@code $2}: parent, {@code $3}: name, {@code $4}: 1 for recursive. Deletes the entry itself: a
     * symbolic link is removed, never followed.
     */
    static final String DELETE = """
            sf_entry "$2" "$3"
            [ -e "$sf_e" ] || [ -L "$sf_e" ] || sf_fail 4 "$sf_e"
            if [ -d "$sf_e" ] && [ ! -L "$sf_e" ]; then
              if [ "$4" = 1 ]; then rm -rf "$sf_e" || exit 1; exit 0; fi
              [ -z "$(ls -A "$sf_e")" ] || sf_fail 7 "$sf_e"
              rmdir "$sf_e" || exit 1
            else
              rm -f "$sf_e" || exit 1
            fi
            """;

    /**
     * {@code $2}/{@code $3}: source parent and name, {@code $4}/{@code $5}: target parent and name.
     * Renames the source entry itself; the target must not be a directory.
     */
    static final String MOVE = """
            sf_entry "$2" "$3"; sf_src=$sf_e
            [ -e "$sf_src" ] || [ -L "$sf_src" ] || sf_fail 4 "$sf_src"
            sf_entry "$4" "$5"
            [ -d "$sf_e" ] && sf_fail 6 "$sf_e"
            [ -d "$sf_t" ] || mkdir -p "$sf_t" || exit 1
            mv -f "$sf_src" "$sf_e" || exit 1
            """;

    /** {@code $2}/{@code $3}: parent and name of the link, {@code $4}: its target. Replaces a non-directory. */
    static final String SYMLINK = """
            sf_entry "$2" "$3"
            [ -d "$sf_e" ] && [ ! -L "$sf_e" ] && sf_fail 6 "$sf_e"
            [ -d "$sf_t" ] || mkdir -p "$sf_t" || exit 1
            ln -sfn -- "$4" "$sf_e" || exit 1
            """;

    /** {@code $2}/{@code $3}: parent and name of a symbolic link. Prints its target and a newline. */
    static final String READLINK = """
            sf_entry "$2" "$3"
            [ -L "$sf_e" ] || sf_fail 4 "$sf_e"
            readlink "$sf_e" || exit 1
            """;

    private FileScripts() {
    }

    /**
     * The command line running {@code body} with {@code root} as {@code $1} and {@code args} after it;
     * {@code dataVariables} names the environment variables whose concatenation {@code sf_data} prints.
     */
    static String commandLine(String root, List<String> args, int dataVariables, String... body) {
        StringBuilder line = new StringBuilder("set -- ").append(Sandboxes.quote(root));
        for (String arg : args) {
            line.append(' ').append(Sandboxes.quote(arg));
        }
        line.append('\n');
        StringBuilder data = new StringBuilder("sf_data() { printf '%s' \"");
        for (int i = 0; i < dataVariables; i++) {
            data.append("$").append(ChunkEncoder.variable(i));
        }
        line.append(data.append("\"; }\n"));
        line.append(PRELUDE);
        for (String part : body) {
            line.append(part);
        }
        return line.toString();
    }
}
