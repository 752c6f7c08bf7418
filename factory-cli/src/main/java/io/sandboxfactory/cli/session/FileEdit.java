package io.sandboxfactory.cli.session;

import io.sandboxfactory.cli.BadInputException;

/**
 * Replaces an exact string in a text: once, where it occurs exactly once, or everywhere. Refuses,
 * saying which, when it does not occur or (for one replacement) occurs more than once.
 */
public final class FileEdit {

    /** The edited text and how many occurrences were replaced. */
    public record Edited(String text, int replacements) {
    }

    private FileEdit() {
    }

    public static Edited apply(String text, String oldString, String newString, boolean all, String where) {
        if (oldString.isEmpty()) {
            throw new BadInputException("old_string is empty; give the exact text to replace in " + where + ".");
        }
        if (oldString.equals(newString)) {
            throw new BadInputException("old_string and new_string are the same; nothing would change in " + where + ".");
        }
        int count = occurrences(text, oldString);
        if (count == 0) {
            throw new BadInputException("old_string " + shown(oldString) + " does not occur in " + where
                    + "; give text exactly as it is in the file (whitespace included).");
        }
        if (count > 1 && !all) {
            throw new BadInputException("old_string " + shown(oldString) + " occurs " + count + " times in " + where
                    + "; give more surrounding text so that it occurs once, or set replace_all.");
        }
        return new Edited(all ? text.replace(oldString, newString) : replaceOnce(text, oldString, newString), count);
    }

    private static String replaceOnce(String text, String oldString, String newString) {
        int at = text.indexOf(oldString);
        return text.substring(0, at) + newString + text.substring(at + oldString.length());
    }

    /** Non-overlapping occurrences, as a replacement sees them. */
    static int occurrences(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
            count++;
        }
        return count;
    }

    /** The string quoted, cut to a readable length, newlines shown as \n. */
    private static String shown(String text) {
        String oneLine = text.replace("\n", "\\n");
        return "'" + (oneLine.length() > 60 ? oneLine.substring(0, 60) + "…" : oneLine) + "'";
    }
}
