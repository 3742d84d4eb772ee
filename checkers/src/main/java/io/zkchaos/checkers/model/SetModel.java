package io.zkchaos.checkers.model;

import io.zkchaos.checkers.history.Operation;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * A grow-only set: {@code add} adds its value, {@code read} returns the whole set (any collection; compared as a
 * set). A read that completed with nil constrains nothing. Partitioned by key (one set per key) when operations
 * carry one.
 */
public final class SetModel extends KeyedReadModel<SetModel.State> {

    private final State init;

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
        this.init = new State(s);
    }

    @Override
    public String name() {
        return "set";
    }

    @Override
    public State init() {
        return init;
    }

    @Override
    public State step(State state, Operation op) {
        switch (op.f()) {
            case "add":
                return state.with(Values.normalize(op.input()));
            case "read": {
                if (!op.isOk() || op.output() == null) {
                    return state;
                }
                if (!(op.output() instanceof Collection<?> seen)) {
                    throw new IllegalArgumentException(
                            "set model: a read must return a collection, got " + Values.describe(op.output())
                                    + " in " + op);
                }
                return state.sameAs(seen) ? state : null;
            }
            default:
                throw new IllegalArgumentException(
                        "set model: unknown function '" + op.f() + "' (known: add, read) in " + op);
        }
    }

    /** An indeterminate add of an element no ok read contains: had it taken effect, every later read would. */
    @Override
    public Predicate<Operation> unobserved(List<Operation> operations) {
        Set<Object> seen = new HashSet<>();
        for (Operation op : operations) {
            if (op.isOk() && op.f().equals("read") && op.output() instanceof Collection<?> c) {
                for (Object o : c) {
                    seen.add(Values.normalize(o));
                }
            }
        }
        return op -> op.f().equals("add") && !seen.contains(Values.normalize(op.input()));
    }

    /** The elements, sorted when they are comparable: {@code #{1 2 3}}. */
    @Override
    public String describeState(State state) {
        Collection<Object> elements = state.elements;
        try {
            elements = new TreeSet<>(state.elements);
        } catch (ClassCastException | NullPointerException e) {
            // not mutually comparable: keep hash order
        }
        String inner = Values.describe(elements);
        return "#{" + inner.substring(1, inner.length() - 1) + "}";
    }

    /** An immutable set with its hash kept as elements are added (the search hashes every state). */
    public static final class State {
        private final Set<Object> elements;
        private final int hash;

        State(Set<Object> elements) {
            this.elements = elements;
            this.hash = elements.hashCode();
        }

        private State(Set<Object> elements, int hash) {
            this.elements = elements;
            this.hash = hash;
        }

        /** The elements, read-only. */
        public Set<Object> elements() {
            return Collections.unmodifiableSet(elements);
        }

        State with(Object element) {
            if (elements.contains(element)) {
                return this;
            }
            Set<Object> next = new HashSet<>(elements);
            next.add(element);
            return new State(next, hash + java.util.Objects.hashCode(element));
        }

        /** Whether {@code read}, as a set without duplicates, has exactly these elements. */
        boolean sameAs(Collection<?> read) {
            if (read.size() != elements.size()) {
                return false;
            }
            Set<Object> seen = new HashSet<>();
            for (Object o : read) {
                Object e = Values.normalize(o);
                if (!elements.contains(e) || !seen.add(e)) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof State s && s.hash == hash && s.elements.equals(elements);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public String toString() {
            return elements.toString();
        }
    }
}
