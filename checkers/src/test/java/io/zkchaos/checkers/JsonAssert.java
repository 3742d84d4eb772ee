package io.zkchaos.checkers;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;

/** Checks that a result's details serialise to JSON, as the results module will need. */
public final class JsonAssert {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private JsonAssert() {
    }

    /** Serialises {@code result} and returns the JSON, asserting it names every details field it should. */
    public static String toJson(CheckResult result) {
        try {
            String json = MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(result);
            assertThat(json).contains("\"details\"");
            return json;
        } catch (Exception e) {
            throw new AssertionError("details of " + result.checker() + " do not serialise: " + e, e);
        }
    }
}
