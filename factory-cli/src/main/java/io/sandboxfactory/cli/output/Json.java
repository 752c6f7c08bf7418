package io.sandboxfactory.cli.output;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;


/** Writes the one JSON document a {@code --json} invocation prints. */
public final class Json {

    private Json() {
    }

    /** Prints {@code document} on the console's stdout, its secrets masked ({@link Console#redaction()}). */
    public static void print(Console console, Object document) {
        try {
            console.out().println(console.redaction().apply(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsString(document)));
            console.out().flush();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Could not write the JSON output: " + e.getMessage(), e);
        }
    }

    /** {@code value} as JSON on one line. */
    public static String compact(Object value) {
        try {
            return new ObjectMapper().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Could not write a value as JSON: " + e.getMessage(), e);
        }
    }
}
