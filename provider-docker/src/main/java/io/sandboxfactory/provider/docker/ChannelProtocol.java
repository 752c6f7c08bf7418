package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.provider.support.CommandScripts;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What the provider and the shell server of an {@link ExecChannel} say to each other.
 *
 * <p>Requests: one line on the server's stdin per command, a list of shell-quoted words that the
 * server turns into its positional parameters with {@code eval "set -- $line"}: the end nonce, the
 * wrapper's pid file, the working directory, the command line, the missing-directory signal, then
 * every {@code NAME=VALUE} of the command's environment. Each word is single-quoted; a newline is
 * written as {@code '"$_sf_nl"'} so the request stays one line. Nothing in a word is ever
 * evaluated, so any text without NUL arrives verbatim.
 *
 * <p>Per command the server makes two FIFOs (removed once open), starts one {@code cat} copying
 * each to its own stdout and stderr, and runs the wrapper ({@link CommandScripts#RUN_SCRIPT}) in a fresh child: {@code setsid} (so the
 * wrapper leads its own process group, as an exec would), {@code env} with exactly the requested
 * variables over the container's, stdin {@code /dev/null}, stdout and stderr on the FIFOs. The
 * server's own variables are not exported, so nothing of one command reaches the next. When the
 * command exits the server waits for both copies to reach end of file, at most {@link
 * #GRACE_SECONDS} (background children may hold the FIFOs open; their later output is dropped), and
 * then writes {@link #terminator} on stderr and the terminator followed by the exit status and a
 * newline on stdout. The terminator holds a nonce only the provider and the server know, so a
 * command's output cannot end its own result early, and nothing the command leaves behind can
 * write into the next command's output: its FIFOs are gone.
 *
 * <p>The server reads its requests through a watcher: a background copy of its stdin into a FIFO.
 * When stdin ends, because this process closed the channel or died (the engine then closes the
 * exec's stdin), the watcher kills every process whose environment holds {@link
 * #CHANNEL_VARIABLE}{@code =<token>}, which the server gives every command it runs, and the group
 * each leads; so a command dies with the host that started it instead of running on unseen.
 *
 * <p>The server leaves a trace of the last request it read in its {@link #directory}: an empty
 * file named by the nonce and {@code .taken} (just {@code .taken} before the first request). It
 * creates the file for a request before it acts on it, or exits, and only then removes the file of
 * the request before. A server killed from outside runs no exit trap, so the trace stays: once the
 * server has exited, a trace of another request proves that it never read a request (one sent as
 * it died), which can then run elsewhere ({@link #neverRead}). A server that exits normally
 * removes its directory, trace included, so no trace proves nothing. (Empty files, created and
 * removed: rewriting one file would make ext4 flush it on every request.)
 */
final class ChannelProtocol {

    /** How long output may stay open after the command exited. The local provider waits as long. */
    static final int GRACE_SECONDS = 2;

    /** Marks every process of every command of one channel (its token), for the watcher to kill. */
    static final String CHANNEL_VARIABLE = "SANDBOX_FACTORY_CHANNEL";

    private static final String DIRECTORY_PREFIX = "/tmp/.sf-channel-";
    private static final String TRACE_SUFFIX = ".taken";

    /**
     * {@code $1} is {@link CommandScripts#RUN_SCRIPT}, {@code $2} the channel's token (naming its
     * {@link #directory}). Variables are prefixed so they cannot clash with the container's.
     */
    static final String SERVER_SCRIPT = String.join("\n",
            "_sf_run=$1",
            "unset SHLVL",
            // The real stderr moves to fd 3 so the shell's own messages (such as a killed copy's status) go nowhere.
            "exec 3>&2 2>/dev/null",
            "_sf_nl='",
            "'",
            "_sf_dir=" + DIRECTORY_PREFIX + "$2",
            "rm -rf \"$_sf_dir\"",
            "mkdir -m 700 \"$_sf_dir\" || exit 70",
            "trap 'rm -rf \"$_sf_dir\"' EXIT",
            ": >\"$_sf_dir/" + TRACE_SUFFIX + "\" || exit 70",
            "_sf_tok=$2",
            "for _sf_tool in setsid env mkfifo cat sleep; do command -v $_sf_tool >/dev/null || exit 69; done",
            // The watcher: copies the requests from the real stdin to a FIFO the loop reads, and when
            // stdin ends (the host closed the channel, or died: the engine closes a dead client's
            // stdin) kills every process of every command of this channel, then ends the loop's input.
            // fd 8 carries stdin into it: an asynchronous list's own stdin is /dev/null.
            "mkfifo \"$_sf_dir/in\" || exit 71",
            "exec 8<&0",
            "{ cat <&8 8<&-",
            CommandScripts.killMarked(CHANNEL_VARIABLE, "$_sf_tok"),
            "} >\"$_sf_dir/in\" 3>&- &",
            "exec 0<\"$_sf_dir/in\" 8<&-",
            "rm -f \"$_sf_dir/in\"",
            "printf '\\001\\002sf-ready\\n'",
            "_sf_n=0",
            "while IFS= read -r _sf_line; do",
            "  eval \"set -- $_sf_line\"",
            "  : >\"$_sf_dir/$1" + TRACE_SUFFIX + "\" || exit 72",
            "  _sf_was=$_sf_end",
            "  _sf_end=$1 _sf_pid=$2 _sf_cwd=$3 _sf_cmd=$4 _sf_sig=$5",
            "  shift 5",
            "  _sf_n=$((_sf_n + 1))",
            "  _sf_o=$_sf_dir/$_sf_n.o _sf_e=$_sf_dir/$_sf_n.e",
            "  mkfifo \"$_sf_o\" \"$_sf_e\" || exit 71",
            // Opened read-write first so no open blocks: a blocked open in the shell fails when a signal
            // arrives, and a copy that opened only after the command ended would wait for a writer forever.
            "  exec 4<>\"$_sf_o\" 5<>\"$_sf_e\" 6<\"$_sf_o\" 7<\"$_sf_e\"",
            "  rm -f \"$_sf_o\" \"$_sf_e\" \"$_sf_dir/$_sf_was" + TRACE_SUFFIX + "\"",
            "  cat <&6 3>&- 4>&- 5>&- 6<&- 7<&- & _sf_op=$!",
            "  cat <&7 >&3 3>&- 4>&- 5>&- 6<&- 7<&- & _sf_ep=$!",
            "  exec 6<&- 7<&-",
            "  setsid env -- \"$@\" " + CHANNEL_VARIABLE + "=\"$_sf_tok\" /bin/sh -c \"$_sf_run\" sandbox-factory-exec \"$_sf_pid\" \"$_sf_cwd\" \"$_sf_cmd\" \"$_sf_sig\""
                    + " </dev/null >&4 2>&5 3>&- 4>&- 5>&-",
            "  _sf_st=$?",
            "  exec 4>&- 5>&-",
            // The watchdog ends copies that background children keep open. It leads its own process
            // group, so one kill ends it and its sleep whether or not it got to setsid yet.
            "  setsid sh -c 'sleep " + GRACE_SECONDS + "; kill -9 \"$1\" \"$2\"' sandbox-factory-grace $_sf_op $_sf_ep"
                    + " </dev/null >/dev/null 3>&- & _sf_w=$!",
            "  wait $_sf_op $_sf_ep",
            "  kill -9 -$_sf_w $_sf_w",
            "  wait $_sf_w",
            "  printf '\\001\\002sf-end:%s\\n' \"$_sf_end\" >&3",
            "  printf '\\001\\002sf-end:%s\\n%s\\n' \"$_sf_end\" \"$_sf_st\"",
            "done");

    private ChannelProtocol() {
    }

    /** The exec argv of the server of channel {@code token}. */
    static List<String> serverCommand(String token) {
        return List.of("/bin/sh", "-c", SERVER_SCRIPT, "sandbox-factory-channel", CommandScripts.RUN_SCRIPT, token);
    }

    /** Where the server of channel {@code token} keeps its FIFOs and its trace. */
    static String directory(String token) {
        return DIRECTORY_PREFIX + token;
    }

    /**
     * A command line that lists the directory an exited server of channel {@code token} left and
     * removes it; it fails when there is none.
     */
    static String listDirectory(String token) {
        return "cd " + directory(token) + " && ls -a && cd / && rm -rf " + directory(token);
    }

    /**
     * Whether {@code listing} (of {@link #listDirectory}, one name a line) of an exited server's
     * directory proves that the server never read request {@code nonce}: it holds the trace of
     * another request and none of this one.
     */
    static boolean neverRead(String listing, String nonce) {
        List<String> traces = listing.lines().filter(name -> name.endsWith(TRACE_SUFFIX)).toList();
        return !traces.isEmpty() && !traces.contains(nonce + TRACE_SUFFIX);
    }

    /** What the server writes on stdout once it is ready for requests (it exits instead when a tool it needs is missing). */
    static byte[] ready() {
        return "\u0001\u0002sf-ready\n".getBytes(StandardCharsets.UTF_8);
    }

    /** The bytes that end one command's output on each stream. */
    static byte[] terminator(String nonce) {
        return ("\u0001\u0002sf-end:" + nonce + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /** Whether {@code text} can travel in a request (no NUL: neither a shell word nor an exec argument can hold one). */
    static boolean sendable(String text) {
        return text.indexOf('\0') < 0;
    }

    /** The request line, newline included, that runs one command. */
    static byte[] request(String nonce, String pidFile, String cwd, String commandLine, String missingDirectorySignal,
                          List<String> env) {
        StringBuilder line = new StringBuilder(commandLine.length() + 256);
        for (String word : List.of(nonce, pidFile, cwd, commandLine, missingDirectorySignal)) {
            appendWord(line, word);
        }
        env.forEach(entry -> appendWord(line, entry));
        line.append('\n');
        return line.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void appendWord(StringBuilder line, String word) {
        if (!sendable(word)) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "A channel request cannot carry a NUL character.");
        }
        line.append(" '");
        for (int i = 0; i < word.length(); i++) {
            char c = word.charAt(i);
            switch (c) {
                case '\'' -> line.append("'\\''");
                case '\n' -> line.append("'\"$_sf_nl\"'");
                default -> line.append(c);
            }
        }
        line.append('\'');
    }
}
