package io.zkchaos.checkers.model;

import io.zkchaos.checkers.history.Operation;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The register models' common part: {@code read} and {@code write} on one value per key, a read that completed with
 * nil constraining nothing (as in Knossos), and the same descriptions and unobserved-write rule. A subclass adds
 * functions through {@link #stepOther}.
 */
abstract class RegisterBase extends KeyedReadModel<Object> {

    private final String name;
    private final Object init;
    private final String known;

    /**
     * @param name the model's name, also used in error messages
     * @param init the register's value before any operation (null for nil)
     * @param known the functions the model knows, for the unknown-function error ({@code read, write})
     */
    RegisterBase(String name, Object init, String known) {
        this.name = name;
        this.init = Values.state(init);
        this.known = known;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final Object init() {
        return init;
    }

    @Override
    public final Object step(Object state, Operation op) {
        switch (op.f()) {
            case "read":
                return read(state, op);
            case "write":
                return Values.state(op.input());
            default:
                return stepOther(state, op);
        }
    }

    /** Steps a function other than read and write; this base knows none and throws. */
    Object stepOther(Object state, Operation op) {
        throw new IllegalArgumentException(
                name + " model: unknown function '" + op.f() + "' (known: " + known + ") in " + op);
    }

    /** A read takes effect only if it saw the current value (or its answer is unknown). */
    private static Object read(Object state, Operation op) {
        if (!op.isOk() || op.output() == null) {
            return state;
        }
        return Values.state(op.output()).equals(state) ? state : null;
    }

    @Override
    public final String describeState(Object state) {
        return Values.describe(state);
    }

    /**
     * An indeterminate write (or cas) of a value that no ok read returned and no cas expected: had it taken effect,
     * a read before the next write would have returned it (values are compared as written).
     */
    @Override
    public final Predicate<Operation> unobserved(List<Operation> operations) {
        Set<Object> observed = new HashSet<>();
        for (Operation op : operations) {
            if (op.isFail()) {
                continue;
            }
            if (op.f().equals("read") && op.isOk() && op.output() != null) {
                observed.add(Values.state(op.output()));
            } else if (op.f().equals("cas") && op.input() instanceof List<?> pair && pair.size() == 2) {
                observed.add(Values.state(pair.get(0)));
            }
        }
        return op -> {
            Object written;
            if (op.f().equals("write")) {
                written = op.input();
            } else if (op.f().equals("cas") && op.input() instanceof List<?> pair && pair.size() == 2) {
                written = pair.get(1);
            } else {
                return false;
            }
            return !observed.contains(Values.state(written));
        };
    }

    /** {@code read -> 3}, {@code write 3}, {@code cas 1 -> 2}; marked when indeterminate. */
    @Override
    public final String describeOperation(Operation op) {
        String key = op.key() == null ? "" : "[" + op.key() + "]";
        String s = switch (op.f()) {
            case "read" -> "read" + key + " -> " + (op.isOk() ? Values.describe(op.output()) : "?");
            case "cas" -> op.input() instanceof List<?> p && p.size() == 2
                    ? "cas" + key + " " + Values.describe(p.get(0)) + " -> " + Values.describe(p.get(1))
                    : "cas" + key + " " + Values.describe(op.input());
            default -> op.f() + key + " " + Values.describe(op.input());
        };
        return op.isInfo() ? s + " (indeterminate)" : s;
    }
}
