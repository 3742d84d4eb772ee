package io.zkchaos.model;

import io.zkchaos.history.Operation;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A read/write register ({@code read}, {@code write}), partitioned by key when operations carry one.
 *
 * <p>As in Knossos, a read that completed with value nil constrains nothing: Jepsen histories record reads whose
 * answer was lost that way. To check that a register really was empty, give it a non-nil initial value.
 */
public final class RegisterModel implements Model<Object>, UnobservedInfo {

    private final Object init;

    /** @param init the register's value before any operation (null for nil) */
    public RegisterModel(Object init) {
        this.init = Values.state(init);
    }

    @Override
    public String name() {
        return "register";
    }

    @Override
    public Object init() {
        return init;
    }

    @Override
    public Object step(Object state, Operation op) {
        switch (op.f()) {
            case "read":
                return RegisterModel.read(state, op);
            case "write":
                return Values.state(op.input());
            default:
                throw new IllegalArgumentException(
                        "register model: unknown function '" + op.f() + "' (known: read, write) in " + op);
        }
    }

    /** A read takes effect only if it saw the current value (or its answer is unknown). */
    static Object read(Object state, Operation op) {
        if (!op.isOk() || op.output() == null) {
            return state;
        }
        return Values.state(op.output()).equals(state) ? state : null;
    }

    @Override
    public boolean isReadOnly(Operation op) {
        return "read".equals(op.f());
    }

    @Override
    public List<List<Operation>> partition(List<Operation> operations) {
        return ByKey.partition(operations);
    }

    @Override
    public String describeState(Object state) {
        return Values.describe(state);
    }

    /**
     * An indeterminate write (or cas) of a value that no ok read returned and no cas expected: had it taken effect,
     * a read before the next write would have returned it (values are compared as written).
     */
    @Override
    public Predicate<Operation> unobserved(List<Operation> operations) {
        return RegisterModel.unobservedWrites(operations);
    }

    static Predicate<Operation> unobservedWrites(List<Operation> operations) {
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
    public String describeOperation(Operation op) {
        return RegisterModel.describe(op);
    }

    static String describe(Operation op) {
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
