package io.sandboxfactory.core.internal.git;

import java.util.List;
import java.util.Locale;

/** Classifies git's error output: which failures are transient, which mean the network is closed. */
final class GitErrors {

    private static final List<String> EGRESS = List.of(
            "could not resolve host", "could not resolve hostname", "name or service not known",
            "temporary failure in name resolution", "failed to connect", "couldn't connect to server",
            "connection refused", "network is unreachable", "no route to host", "connection timed out",
            "operation timed out", "timed out");

    private static final List<String> TRANSIENT = List.of(
            "connection reset", "early eof", "the remote end hung up unexpectedly", "rpc failed",
            "unexpected disconnect", "http/2 stream", "gnutls_handshake", "ssl_read", "ssl_connect",
            "tls connection", "502 bad gateway", "503 service unavailable", "504 gateway",
            "error: 502", "error: 503", "error: 504", "returned error: 429", "returned error: 502",
            "returned error: 503", "returned error: 504", "temporary failure");

    private GitErrors() {
    }

    /** Whether the output names a network problem reaching the remote. */
    static boolean isEgressBlocked(String output) {
        String text = output.toLowerCase(Locale.ROOT);
        return EGRESS.stream().anyMatch(text::contains);
    }

    /** Whether retrying the same clone or fetch may succeed. */
    static boolean isTransient(String output) {
        String text = output.toLowerCase(Locale.ROOT);
        return isEgressBlocked(text) || TRANSIENT.stream().anyMatch(text::contains);
    }

    /** The last lines of git's output, enough to say what went wrong without flooding a message. */
    static String tail(String output) {
        String trimmed = output.strip();
        if (trimmed.length() <= 600) {
            return trimmed;
        }
        return "…" + trimmed.substring(trimmed.length() - 600);
    }
}
