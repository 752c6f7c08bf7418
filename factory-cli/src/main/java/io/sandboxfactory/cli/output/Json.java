package io.sandboxfactory.cli.output;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.PrintStream;

/** Writes the one JSON document a {@code --json} invocation prints. */
public final class Json {

    private Json() {
    }

    public static void print(PrintStream out, Object document) {
        try {
            out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(document));
            out.flush();
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
