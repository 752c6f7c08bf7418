package io.sandboxfactory.core.internal.config;

/**
 * Shows untrusted text inside one-sentence error messages. Guarantees: the result is a single line
 * of visible characters — control characters, invisible formatting characters (bidirectional
 * overrides, zero-width marks), line and paragraph separators and unpaired surrogates are written
 * as {@code \}{@code uXXXX} escapes, so a message names the exact value without letting it rewrite
 * the terminal or the log line — and it holds at most {@value #MAX_SHOWN} code points of the value
 * (then {@code …}).
 */
public final class InputText {

    /** Code points of a value shown before it is cut off. */
    public static final int MAX_SHOWN = 80;

    private InputText() {
    }

    /** {@code value} made safe to quote in a message; {@code null} shows as {@code null}. */
    public static String shown(String value) {
        if (value == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder();
        int shown = 0;
        for (int i = 0; i < value.length(); shown++) {
            if (shown == MAX_SHOWN) {
                return out.append('…').toString();
            }
            int cp = value.codePointAt(i);
            if (isHidden(cp)) {
                out.append(cp > 0xFFFF ? String.format("\\U%08x", cp) : String.format("\\u%04x", cp));
            } else {
                out.appendCodePoint(cp);
            }
            i += Character.charCount(cp);
        }
        return out.toString();
    }

    /** Whether {@code value} holds a character {@link #shown} would escape. */
    public static boolean containsHidden(String value) {
        return value.codePoints().anyMatch(InputText::isHidden);
    }

    /** Whether {@code value} holds a surrogate without its partner (not valid Unicode text). */
    public static boolean containsUnpairedSurrogate(String value) {
        return value.codePoints().anyMatch(cp -> Character.getType(cp) == Character.SURROGATE);
    }

    /** Control, format, line/paragraph separator, or an unpaired surrogate. */
    static boolean isHidden(int cp) {
        return switch (Character.getType(cp)) {
            case Character.CONTROL, Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
                    Character.SURROGATE -> true;
            default -> false;
        };
    }
}
