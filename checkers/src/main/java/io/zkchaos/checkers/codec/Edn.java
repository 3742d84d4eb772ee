package io.zkchaos.checkers.codec;

import io.zkchaos.checkers.history.MalformedHistoryException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * EDN values in and out, as plain data: what the CLI's {@code --init} takes and what op values print as.
 *
 * <p>Plain data is what {@link io.zkchaos.checkers.history.Op} holds: null, {@link Long}, {@link BigInteger} (only beyond a
 * long), {@link Double}, {@link String}, {@link Boolean}, {@link List} and {@link Map}. Reading maps EDN onto it:
 * keywords and symbols become their names without the colon, characters one-character strings, sets lists (in the
 * order written), {@code M} decimals doubles.
 */
public final class Edn {

    private Edn() {
    }

    /**
     * Parses exactly one EDN value from {@code text} into plain data ({@code "0"} → 0L, {@code "nil"} → null,
     * {@code "{:x 0 :y 0}"} → {x=0, y=0}).
     *
     * @param source names the text in errors (e.g. {@code "--init"})
     * @throws MalformedHistoryException naming the line, column and problem
     */
    public static Object parse(String text, String source) {
        EdnParser parser = new EdnParser(text.getBytes(java.nio.charset.StandardCharsets.UTF_8), source);
        if (parser.peek() < 0) {
            throw parser.error("no value (the text is empty)");
        }
        Object value = parser.read();
        if (parser.peek() >= 0) {
            throw parser.error("unexpected text after the value");
        }
        return plain(value);
    }

    /** Converts a raw EDN value to plain data (see the class comment). */
    static Object plain(Object raw) {
        if (raw == null || raw instanceof String || raw instanceof Long || raw instanceof Boolean
                || raw instanceof Double || raw instanceof BigInteger) {
            return raw;
        }
        if (raw instanceof Keyword k) {
            return k.name();
        }
        if (raw instanceof Symbol s) {
            return s.name();
        }
        if (raw instanceof Character c) {
            return c.toString();
        }
        if (raw instanceof BigDecimal d) {
            return d.doubleValue();
        }
        if (raw instanceof Collection<?> items) {
            List<Object> out = new ArrayList<>(items.size());
            for (Object item : items) {
                out.add(plain(item));
            }
            return Collections.unmodifiableList(out);
        }
        if (raw instanceof Map<?, ?> map) {
            Map<Object, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                // Two raw keys can meet as one plain key ({:a 1 "a" 2}); the later one wins.
                out.put(plain(e.getKey()), plain(e.getValue()));
            }
            return Collections.unmodifiableMap(out);
        }
        throw new IllegalArgumentException("not an EDN value: " + raw.getClass().getName());
    }

    /**
     * Prints a plain or raw value as EDN; strings are quoted (plain data has no keywords).
     *
     * @throws IllegalArgumentException for a value that is not data (see the class comment)
     */
    public static String print(Object value) {
        StringBuilder sb = new StringBuilder();
        print(value, sb);
        return sb.toString();
    }

    static void print(Object value, StringBuilder sb) {
        if (value == null) {
            sb.append("nil");
        } else if (value instanceof String s) {
            printString(s, sb);
        } else if (value instanceof Long || value instanceof Integer || value instanceof Short
                || value instanceof Byte || value instanceof BigInteger || value instanceof Boolean) {
            sb.append(value);
        } else if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (Double.isNaN(d)) {
                sb.append("##NaN");
            } else if (Double.isInfinite(d)) {
                sb.append(d > 0 ? "##Inf" : "##-Inf");
            } else {
                sb.append(d);
            }
        } else if (value instanceof BigDecimal d) {
            sb.append(d.toString()).append('M');
        } else if (value instanceof Keyword || value instanceof Symbol) {
            sb.append(value);
        } else if (value instanceof Character c) {
            sb.append('\\').append(switch (c) {
                case '\n' -> "newline";
                case ' ' -> "space";
                case '\t' -> "tab";
                case '\r' -> "return";
                case '\f' -> "formfeed";
                case '\b' -> "backspace";
                default -> c < 0x20 || c > 0x7e ? String.format("u%04x", (int) c) : String.valueOf(c);
            });
        } else if (value instanceof java.util.Set<?> set) {
            sb.append("#{");
            printItems(set, sb);
            sb.append('}');
        } else if (value instanceof Collection<?> items) {
            sb.append('[');
            printItems(items, sb);
            sb.append(']');
        } else if (value instanceof Map<?, ?> map) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!first) {
                    sb.append(", ");
                }
                first = false;
                print(e.getKey(), sb);
                sb.append(' ');
                print(e.getValue(), sb);
            }
            sb.append('}');
        } else {
            throw new IllegalArgumentException("cannot write a " + value.getClass().getName() + " as EDN: " + value);
        }
    }

    private static void printItems(Collection<?> items, StringBuilder sb) {
        boolean first = true;
        for (Object item : items) {
            if (!first) {
                sb.append(' ');
            }
            first = false;
            print(item, sb);
        }
    }

    private static void printString(String s, StringBuilder sb) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\r");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    /** Whether {@code name} can be written as a keyword and read back as the same name. */
    static boolean isKeywordName(String name) {
        return EdnParser.KEYWORD_NAME.matcher(name).matches();
    }
}
