package io.zkchaos.checkers;

import io.zkchaos.checkers.history.MalformedHistoryException;
import io.zkchaos.checkers.history.Operation;
import java.math.BigInteger;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reading the plain-data values of history entries (maps, lists, numbers) for checkers, with errors that name the
 * operation and the field, so that a history that breaks the conventions of {@code docs/history-conventions.md}
 * is reported as such rather than as a {@link ClassCastException}.
 */
public final class Values {

    private Values() {
    }

    /** {@code value} as a map; throws naming {@code what} and the op when it is not one. */
    public static Map<?, ?> map(Object value, String what, Operation op) {
        if (value instanceof Map<?, ?> m) {
            return m;
        }
        throw malformed(op, what + " must be a map but is " + describe(value));
    }

    /** {@code value} as a list; throws naming {@code what} and the op when it is not one. */
    public static List<?> list(Object value, String what, Operation op) {
        if (value instanceof List<?> l) {
            return l;
        }
        throw malformed(op, what + " must be a list but is " + describe(value));
    }

    /** The integer {@code field} of {@code map}; throws when it is missing or not an integer. */
    public static long longField(Map<?, ?> map, String field, String what, Operation op) {
        Object v = map.get(field);
        if (v == null) {
            throw malformed(op, what + " has no \"" + field + "\" field: " + map);
        }
        return asLong(v, what + "." + field, op);
    }

    /** The integer {@code field} of {@code map}, or {@code absent} when it is missing or null. */
    public static long longField(Map<?, ?> map, String field, long absent, String what, Operation op) {
        Object v = map.get(field);
        return v == null ? absent : asLong(v, what + "." + field, op);
    }

    /** {@code v} as a long: any integral number; throws otherwise. */
    public static long asLong(Object v, String what, Operation op) {
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof BigInteger b && b.bitLength() < 64) {
            return b.longValue();
        }
        throw malformed(op, what + " must be an integer but is " + describe(v));
    }

    /** The string {@code field} of {@code map} (any scalar rendered as a string), or null when missing. */
    public static String stringField(Map<?, ?> map, String field) {
        Object v = map.get(field);
        return v == null ? null : String.valueOf(v);
    }

    /** Normalises integers to {@code Long}, so that 3 (Integer) and 3L are one element. */
    public static Object normalise(Object v) {
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof BigInteger b && b.bitLength() < 64) {
            return b.longValue();
        }
        return v;
    }

    /** An exception naming the operation (process, function, history indices) and the problem. */
    public static MalformedHistoryException malformed(Operation op, String problem) {
        return new MalformedHistoryException("operation " + op.f() + " by process " + op.process()
                + " (history index " + op.invokeIndex() + (op.completeIndex() >= 0 ? ".." + op.completeIndex() : "")
                + "): " + problem, op.invokeIndex());
    }

    /** A nanosecond duration for people: {@code 1.234 s}, {@code 12.5 ms}, or {@code unknown} when negative. */
    public static String human(long nanos) {
        if (nanos < 0) {
            return "unknown";
        }
        if (nanos >= 1_000_000_000L) {
            return String.format(Locale.ROOT, "%.3f s", nanos / 1e9);
        }
        return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
    }

    /** {@code d} as nanoseconds, saturating. */
    public static long nanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    private static String describe(Object v) {
        return v == null ? "null" : v.getClass().getSimpleName() + " " + v;
    }
}
