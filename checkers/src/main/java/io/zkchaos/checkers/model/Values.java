package io.zkchaos.checkers.model;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Value helpers shared by the models. History values are plain data (see {@link io.zkchaos.checkers.history.Op}); codecs
 * normalise integers to {@code Long}, but histories built in code may carry an {@code Integer}, so models normalise
 * before comparing: {@code 1} and {@code 1L} are the same register value.
 */
final class Values {

    /** Stands for a register holding nil: a model state may not be null (null means "cannot take effect"). */
    static final Object NIL = new Object() {
        @Override
        public String toString() {
            return "nil";
        }
    };

    private Values() {
    }

    /** The canonical form of a value: integral numbers become {@code Long} where they fit; lists element-wise. */
    static Object normalize(Object v) {
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof BigInteger b && b.bitLength() < 64) {
            return b.longValue();
        }
        if (v instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            for (Object o : list) {
                out.add(normalize(o));
            }
            return java.util.Collections.unmodifiableList(out);
        }
        return v;
    }

    /** A register state for {@code v}: normalised, with {@link #NIL} standing for null. */
    static Object state(Object v) {
        return v == null ? NIL : normalize(v);
    }

    /** The value a register state stands for. */
    static Object value(Object state) {
        return state == NIL ? null : state;
    }

    /** Describes a state or value the way EDN prints it. */
    static String describe(Object v) {
        if (v == null || v == NIL) {
            return "nil";
        }
        if (v instanceof String s) {
            return '"' + s + '"';
        }
        if (v instanceof Collection<?> c) {
            StringBuilder sb = new StringBuilder("[");
            for (Object o : c) {
                if (sb.length() > 1) {
                    sb.append(' ');
                }
                sb.append(describe(o));
            }
            return sb.append(']').toString();
        }
        return String.valueOf(v);
    }

    /** The two-element list {@code [expected new]} of a cas, or an error naming the operation. */
    static List<?> pair(Object value, String model, Object op) {
        if (value instanceof List<?> l && l.size() == 2) {
            return l;
        }
        throw new IllegalArgumentException(model + " model: cas needs a value [expected new], got "
                + describe(value) + " in " + op);
    }
}
