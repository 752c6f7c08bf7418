package io.sandboxfactory.core.files;

import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Packs one chunk of file content into environment variables for a command: base64 text split
 * into variables {@code SF_D0}, {@code SF_D1}, ... that the script concatenates. The environment,
 * not the command line, carries it because Linux caps one argument at 128 KiB while the whole
 * environment may hold about 2 MiB; each variable stays under the per-string cap and a full chunk
 * uses about half of the total.
 */
final class ChunkEncoder {

    /** Characters per variable: under Linux's 128 KiB limit on one environment string. */
    static final int VARIABLE_CHARS = 120 * 1024;
    /** The default chunk: eight full variables, about 960 KiB of base64 for 720 KiB of content. */
    static final int DEFAULT_CHUNK_BYTES = 8 * VARIABLE_CHARS / 4 * 3;

    private ChunkEncoder() {
    }

    static String variable(int index) {
        return "SF_D" + index;
    }

    /** The variables holding {@code bytes[0..length)} in base64; empty for an empty chunk. */
    static Map<String, String> encode(byte[] bytes, int length) {
        if (length == 0) {
            return Map.of();
        }
        byte[] slice = length == bytes.length ? bytes : java.util.Arrays.copyOf(bytes, length);
        String text = Base64.getEncoder().encodeToString(slice);
        Map<String, String> variables = new LinkedHashMap<>();
        for (int start = 0, i = 0; start < text.length(); start += VARIABLE_CHARS, i++) {
            variables.put(variable(i), text.substring(start, Math.min(text.length(), start + VARIABLE_CHARS)));
        }
        return variables;
    }
}
