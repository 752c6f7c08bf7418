package io.sandboxfactory.core.internal.setup;

/**
 * Keeps command output in logs readable: text over {@value #LIMIT} characters keeps its first
 * {@value #HEAD} and last {@value #TAIL} characters around an ellipsis, so the result is never
 * longer than the limit.
 */
public final class LogText {

    public static final int LIMIT = 2000;
    public static final int HEAD = 200;
    public static final int TAIL = 1797;
    static final String GAP = "...";

    private LogText() {
    }

    public static String abbreviate(String text) {
        if (text == null || text.length() <= LIMIT) {
            return text;
        }
        return text.substring(0, HEAD) + GAP + text.substring(text.length() - TAIL);
    }
}
