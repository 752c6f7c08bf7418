package io.sandboxfactory.cli.session;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A window of a file for an agent: a text file (UTF-8 without NUL bytes) by lines, any other file by
 * bytes as base64; {@code offset} counts the lines (bytes) skipped, {@code limit} how many at most
 * are returned.
 */
public final class FileSlice {

    /** Lines of a text file returned when the caller gives no limit. */
    public static final long DEFAULT_LINES = 2000;
    /** Bytes of a binary file returned when the caller gives no limit. */
    public static final long DEFAULT_BYTES = 256 * 1024;

    private FileSlice() {
    }

    /** The slice as the file_read result: {@code content} plus where it lies in the file. */
    public static Map<String, Object> of(byte[] content, long offset, Optional<Long> limit) {
        Map<String, Object> doc = new LinkedHashMap<>();
        Optional<String> text = text(content);
        if (text.isPresent()) {
            String[] lines = text.get().split("(?<=\n)", -1);
            int total = lines.length > 0 && lines[lines.length - 1].isEmpty() ? lines.length - 1 : lines.length;
            int from = (int) Math.min(offset, total);
            int to = (int) Math.min(total, from + limit.orElse(DEFAULT_LINES));
            doc.put("encoding", "utf-8");
            doc.put("content", String.join("", Arrays.asList(lines).subList(from, to)));
            doc.put("offset", from);
            doc.put("lines", to - from);
            doc.put("totalLines", total);
            doc.put("truncated", to < total);
        } else {
            int from = (int) Math.min(offset, content.length);
            int to = (int) Math.min(content.length, from + limit.orElse(DEFAULT_BYTES));
            doc.put("encoding", "base64");
            doc.put("content", Base64.getEncoder().encodeToString(Arrays.copyOfRange(content, from, to)));
            doc.put("offset", from);
            doc.put("bytes", to - from);
            doc.put("totalBytes", content.length);
            doc.put("truncated", to < content.length);
        }
        return doc;
    }

    /** The content as text when it is UTF-8 without NUL bytes. */
    public static Optional<String> text(byte[] content) {
        for (byte b : content) {
            if (b == 0) {
                return Optional.empty();
            }
        }
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(content)).toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }
}
