package io.zkchaos.checkers.model;

import io.zkchaos.checkers.history.Operation;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Registers named by keys, read and written together in transactions, as Knossos's multi-register: one function,
 * {@code txn}, whose value is a list of micro-operations {@code [f k v]} with {@code f} {@code read} or
 * {@code write}, applied in order. An ok transaction is judged by its completion's value (the reads filled in).
 * As in Knossos, a read micro-op with value nil constrains nothing — that is how an invoke, or an indeterminate
 * transaction, carries its reads. Transactions may span keys, so the history is one partition.
 */
public final class MultiRegisterModel implements Model<Map<String, Object>> {

    private final Map<String, Object> init;

    /** @param init a map from key to initial value (e.g. {@code {x 0, y 0}}), or null for all keys nil */
    public MultiRegisterModel(Object init) {
        if (init != null && !(init instanceof Map<?, ?>)) {
            throw new IllegalArgumentException(
                    "multi-register model: the initial value must be a map from key to value, got "
                            + Values.describe(init));
        }
        Map<String, Object> m = new HashMap<>();
        if (init != null) {
            for (Map.Entry<?, ?> e : ((Map<?, ?>) init).entrySet()) {
                if (e.getValue() != null) {
                    m.put(String.valueOf(e.getKey()), Values.normalize(e.getValue()));
                }
            }
        }
        this.init = Collections.unmodifiableMap(m);
    }

    @Override
    public String name() {
        return "multi-register";
    }

    @Override
    public Map<String, Object> init() {
        return init;
    }

    @Override
    public Map<String, Object> step(Map<String, Object> state, Operation op) {
        if (!"txn".equals(op.f())) {
            throw new IllegalArgumentException(
                    "multi-register model: unknown function '" + op.f() + "' (known: txn) in " + op);
        }
        Object value = op.isOk() && op.output() != null ? op.output() : op.input();
        Map<String, Object> next = null;
        for (Object mop : microOps(value, op)) {
            List<?> m = (List<?>) mop;
            String f = String.valueOf(m.get(0));
            String k = String.valueOf(m.get(1));
            Object v = Values.normalize(m.get(2));
            Map<String, Object> current = next == null ? state : next;
            switch (f) {
                case "read", "r" -> {
                    if (v != null && !v.equals(current.get(k))) {
                        return null;
                    }
                }
                case "write", "w" -> {
                    if (next == null) {
                        next = new HashMap<>(state);
                    }
                    if (v == null) {
                        next.remove(k);
                    } else {
                        next.put(k, v);
                    }
                }
                default -> throw new IllegalArgumentException("multi-register model: unknown micro-op '" + f
                        + "' (known: read, write) in " + op);
            }
        }
        return next == null ? state : Collections.unmodifiableMap(next);
    }

    private static List<?> microOps(Object value, Operation op) {
        if (value instanceof List<?> l) {
            for (Object m : l) {
                if (!(m instanceof List<?> triple) || triple.size() != 3) {
                    throw new IllegalArgumentException("multi-register model: a micro-op must be [f k v], got "
                            + Values.describe(m) + " in " + op);
                }
            }
            return l;
        }
        throw new IllegalArgumentException("multi-register model: a txn value must be a list of [f k v], got "
                + Values.describe(value) + " in " + op);
    }

    /** A transaction that only reads, and whose answers were never seen, constrains nothing. */
    @Override
    public boolean isReadOnly(Operation op) {
        if (!(op.input() instanceof List<?> l)) {
            return false;
        }
        for (Object m : l) {
            if (!(m instanceof List<?> triple) || triple.isEmpty()) {
                return false;
            }
            String f = String.valueOf(triple.get(0));
            if (!f.equals("read") && !f.equals("r")) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String describeState(Map<String, Object> state) {
        StringBuilder sb = new StringBuilder("{");
        for (Map.Entry<String, Object> e : new TreeMap<>(state).entrySet()) {
            if (sb.length() > 1) {
                sb.append(", ");
            }
            sb.append(e.getKey()).append(' ').append(Values.describe(e.getValue()));
        }
        return sb.append('}').toString();
    }
}
