package io.zkchaos.checkers.linear;

import io.zkchaos.checkers.history.Operation;
import io.zkchaos.checkers.model.Model;
import io.zkchaos.checkers.model.SortedArrays;
import java.util.Arrays;

/**
 * Runs a single-object model over a keyed history as one search: the state is a map from key to the inner
 * model's state (a key never touched is in the inner initial state). Used when a history is checked unpartitioned
 * with a model that partitions by key, so that the whole-history search still sees independent objects.
 */
final class PerKeyModel implements Model<PerKeyModel.State> {

    private static final String NO_KEY = "\u0000no key";

    private final Model<Object> inner;
    private final Object innerInit;

    PerKeyModel(Model<Object> inner) {
        this.inner = inner;
        this.innerInit = inner.init();
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public State init() {
        return State.EMPTY;
    }

    @Override
    public State step(State state, Operation op) {
        String key = op.key() == null ? NO_KEY : op.key();
        Object current = state.get(key, innerInit);
        Object next = inner.step(current, op);
        if (next == null) {
            return null;
        }
        return next.equals(current) ? state : state.with(key, next, innerInit);
    }

    @Override
    public boolean isReadOnly(Operation op) {
        return inner.isReadOnly(op);
    }

    @Override
    public String describeState(State state) {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < state.keys.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(state.keys[i] == NO_KEY ? "(no key)" : state.keys[i]).append(' ')
                    .append(inner.describeState(state.values[i]));
        }
        if (state.keys.length == 0) {
            return "every key " + inner.describeState(innerInit);
        }
        return sb.append("; other keys ").append(inner.describeState(innerInit)).append('}').toString();
    }

    @Override
    public String describeOperation(Operation op) {
        return inner.describeOperation(op);
    }

    /** An immutable map from key to inner state, as sorted arrays; keys in the initial state are left out. */
    static final class State {
        static final State EMPTY = new State(new String[0], new Object[0]);

        final String[] keys;
        final Object[] values;
        private final int hash;

        State(String[] keys, Object[] values) {
            this.keys = keys;
            this.values = values;
            this.hash = 31 * Arrays.hashCode(keys) + Arrays.hashCode(values);
        }

        Object get(String key, Object init) {
            int i = Arrays.binarySearch(keys, key);
            return i >= 0 ? values[i] : init;
        }

        State with(String key, Object value, Object init) {
            int i = Arrays.binarySearch(keys, key);
            boolean drop = value.equals(init);
            if (i >= 0) {
                if (drop) {
                    return new State(SortedArrays.without(keys, i), SortedArrays.without(values, i));
                }
                Object[] v = values.clone();
                v[i] = value;
                return new State(keys, v);
            }
            if (drop) {
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
    }
}
