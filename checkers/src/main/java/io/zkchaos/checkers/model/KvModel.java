package io.zkchaos.checkers.model;

import io.zkchaos.checkers.history.Operation;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import java.util.function.Predicate;

/**
 * A string key-value store as in Porcupine's kv model: {@code get} returns the key's value, {@code put} replaces
 * it, {@code append} appends to it; every key starts as {@code ""}. Partitioned by key; checked unpartitioned, the
 * state is the whole map. A get that completed with nil constrains nothing.
 */
public final class KvModel implements Model<KvModel.State>, UnobservedInfo {

    @Override
    public String name() {
        return "kv";
    }

    @Override
    public State init() {
        return State.EMPTY;
    }

    @Override
    public State step(State state, Operation op) {
        String key = keyOf(op);
        switch (op.f()) {
            case "get": {
                if (!op.isOk() || op.output() == null) {
                    return state;
                }
                return state.get(key).equals(String.valueOf(op.output())) ? state : null;
            }
            case "put":
                return state.with(key, text(op.input()));
            case "append":
                return state.with(key, state.get(key).concat(text(op.input())));
            default:
                throw new IllegalArgumentException(
                        "kv model: unknown function '" + op.f() + "' (known: get, put, append) in " + op);
        }
    }

    private static String text(Object v) {
        return v == null ? "" : String.valueOf(v);
    }

    @Override
    public boolean isReadOnly(Operation op) {
        return "get".equals(op.f());
    }

    @Override
    public List<List<Operation>> partition(List<Operation> operations) {
        return ByKey.partition(operations);
    }

    @Override
    public boolean partitionsByKey() {
        return true;
    }

    /**
     * An indeterminate put or append whose (non-empty) value appears in no ok get of its key: had it taken effect,
     * every get of that key up to the next put would contain it. To bound the work, nothing is dropped on a key
     * whose gets returned more than {@value #MAX_SCANNED} characters in all.
     */
    @Override
    public Predicate<Operation> unobserved(List<Operation> operations) {
        Map<String, StringBuilder> gets = new HashMap<>();
        String lastKey = null;
        StringBuilder last = null;
        for (Operation op : operations) {
            if (op.isOk() && op.f().equals("get") && op.output() != null) {
                String key = keyOf(op);
                if (!key.equals(lastKey)) { // partitions are usually one key: look the map up only on a change
                    lastKey = key;
                    last = gets.computeIfAbsent(key, k -> new StringBuilder());
                }
                last.append(op.output()).append('\u0000');
            }
        }
        Map<String, String> seen = new HashMap<>();
        gets.forEach((k, b) -> seen.put(k, b.toString()));
        return op -> {
            if (!op.f().equals("put") && !op.f().equals("append")) {
                return false;
            }
            String v = text(op.input());
            String all = seen.getOrDefault(keyOf(op), "");
            return !v.isEmpty() && v.indexOf('\u0000') < 0 && all.length() <= MAX_SCANNED && !all.contains(v);
        };
    }

    /** The most get output, per key, that {@link #unobserved} scans. */
    static final int MAX_SCANNED = 1 << 22;

    private static String keyOf(Operation op) {
        return op.key() == null ? "" : op.key();
    }

    @Override
    public String describeState(State state) {
        return state.toString();
    }

    /**
     * An immutable map from key to string, stored as sorted arrays (per-key partitions hold one key, so copying on
     * write is cheap). Keys whose value is {@code ""} are left out so that equal maps have one representation.
     */
    public static final class State {

        static final State EMPTY = new State(new String[0], new String[0]);

        private final String[] keys;
        private final String[] values;
        private final int hash;

        private State(String[] keys, String[] values) {
            this.keys = keys;
            this.values = values;
            this.hash = 31 * Arrays.hashCode(keys) + Arrays.hashCode(values);
        }

        /** The value of {@code key}; {@code ""} if never written. */
        public String get(String key) {
            if (keys.length <= 1) {
                // per-key partitions hold one key: skip the search
                return keys.length == 1 && keys[0].equals(key) ? values[0] : "";
            }
            int i = Arrays.binarySearch(keys, key);
            return i >= 0 ? values[i] : "";
        }

        State with(String key, String value) {
            if (keys.length == 1 && keys[0].equals(key)) {
                return value.isEmpty() ? EMPTY : new State(keys, new String[] {value});
            }
            int i = Arrays.binarySearch(keys, key);
            if (i >= 0) {
                if (value.isEmpty()) {
                    return new State(SortedArrays.without(keys, i), SortedArrays.without(values, i));
                }
                String[] v = values.clone();
                v[i] = value;
                return new State(keys, v);
            }
            if (value.isEmpty()) {
                return this;
            }
            int at = -i - 1;
            return new State(SortedArrays.inserted(keys, at, key), SortedArrays.inserted(values, at, value));
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof State s && s.hash == hash && Arrays.equals(s.keys, keys)
                    && Arrays.equals(s.values, values);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        /** {@code {"k" "v", ...}}; a single key's value alone when only one key was written. */
        @Override
        public String toString() {
            if (keys.length == 0) {
                return "all keys \"\"";
            }
            StringBuilder sb = new StringBuilder("{");
            for (int i = 0; i < keys.length; i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                sb.append('"').append(keys[i]).append("\" \"").append(values[i]).append('"');
            }
            return sb.append('}').toString();
        }
    }

    /** Porcupine's style: {@code get("k") -> "v"}, {@code put("k", "v")}, {@code append("k", "v")}. */
    @Override
    public String describeOperation(Operation op) {
        String key = '"' + keyOf(op) + '"';
        String s = switch (op.f()) {
            case "get" -> "get(" + key + ") -> " + (op.isOk() ? Values.describe(op.output()) : "?");
            default -> op.f() + "(" + key + ", " + Values.describe(op.input()) + ")";
        };
        return op.isInfo() ? s + " (indeterminate)" : s;
    }
}
