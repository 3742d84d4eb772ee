package io.zkchaos.model;

import io.zkchaos.history.Operation;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A grow-only set: {@code add} adds its value, {@code read} returns the whole set (any collection; compared as a
 * set). A read that completed with nil constrains nothing. Partitioned by key (one set per key) when operations
 * carry one.
 */
public final class SetModel implements Model<Set<Object>> {

    private final Set<Object> init;

    /** @param init the initial elements (a collection), or null for the empty set */
    public SetModel(Object init) {
        if (init != null && !(init instanceof Collection<?>)) {
            throw new IllegalArgumentException("set model: the initial value must be a collection of elements, got "
                    + Values.describe(init));
        }
        Set<Object> s = new HashSet<>();
        if (init != null) {
            for (Object o : (Collection<?>) init) {
                s.add(Values.normalize(o));
            }
        }
        this.init = Collections.unmodifiableSet(s);
    }

    @Override
    public String name() {
        return "set";
    }

    @Override
    public Set<Object> init() {
        return init;
    }

    @Override
    public Set<Object> step(Set<Object> state, Operation op) {
        switch (op.f()) {
            case "add": {
                Object e = Values.normalize(op.input());
                if (state.contains(e)) {
                    return state;
                }
                Set<Object> next = new HashSet<>(state);
                next.add(e);
                return Collections.unmodifiableSet(next);
            }
            case "read": {
                if (!op.isOk() || op.output() == null) {
                    return state;
                }
                if (!(op.output() instanceof Collection<?> seen)) {
                    throw new IllegalArgumentException(
                            "set model: a read must return a collection, got " + Values.describe(op.output())
                                    + " in " + op);
                }
                if (seen.size() < state.size()) {
                    return null;
                }
                Set<Object> read = new HashSet<>();
                for (Object o : seen) {
                    read.add(Values.normalize(o));
                }
                return read.equals(state) ? state : null;
            }
            default:
                throw new IllegalArgumentException(
                        "set model: unknown function '" + op.f() + "' (known: add, read) in " + op);
        }
    }

    @Override
    public boolean isReadOnly(Operation op) {
        return "read".equals(op.f());
    }

    @Override
    public List<List<Operation>> partition(List<Operation> operations) {
        return ByKey.partition(operations);
    }

    /** The elements, sorted when they are comparable. */
    @Override
    public String describeState(Set<Object> state) {
        Collection<Object> elements = state;
        try {
            elements = new TreeSet<>(state);
        } catch (ClassCastException | NullPointerException e) {
            // not mutually comparable: keep hash order
        }
        String inner = Values.describe(elements);
        return "#{" + inner.substring(1, inner.length() - 1) + "}";
    }
}
