package io.zkchaos.results.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.Locale;

/** How the report writes times, counts and values: one place, so every section reads the same. */
final class Fmt {

    private static final ObjectMapper COMPACT = JsonMapper.builder().build();

    private Fmt() {
    }

    /** A time since the start of the history: {@code 12.345 s}; a dash when unknown (-1). */
    static String at(long nanos) {
        return nanos < 0 ? "—" : String.format(Locale.ROOT, "%.3f s", nanos / 1e9);
    }

    /** A length of time: {@code 850 µs}, {@code 12.3 ms}, {@code 4.20 s}; {@code ?} when unknown (-1). */
    static String span(long nanos) {
        if (nanos < 0) {
            return "?";
        }
        if (nanos < 1_000_000) {
            return String.format(Locale.ROOT, "%d µs", nanos / 1000);
        }
        if (nanos < 1_000_000_000) {
            return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
        }
        return String.format(Locale.ROOT, "%.2f s", nanos / 1e9);
    }

    /** {@code 12,345}. */
    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** A history value as compact JSON text ({@code null}, {@code 3}, {@code "x"}, {@code [1,2]}). */
    static String value(Object v) {
        // Fast paths: a 100,000-operation history has 200,000 values, nearly all numbers or short strings.
        if (v == null) {
            return "null";
        }
        if (v instanceof Long || v instanceof Integer || v instanceof Boolean) {
            return v.toString();
        }
        if (v instanceof String s) {
            return "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(s)) + "\"";
        }
        try {
            return COMPACT.writeValueAsString(v);
        } catch (JsonProcessingException e) {
            return String.valueOf(v);
        }
    }

    /** {@code text} cut to {@code max} characters, saying how much was left out. */
    static String clip(String text, int max) {
        if (text == null || text.length() <= max) {
            return text;
        }
        return text.substring(0, max) + "… (" + count(text.length() - max) + " more characters)";
    }
}
