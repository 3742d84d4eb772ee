package io.zkchaos.model;

import io.zkchaos.history.Operation;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A compare-and-set register: {@code read}, {@code write}, and {@code cas} with value {@code [expected new]},
 * partitioned by key when operations carry one.
 *
 * <p>A cas that completed ok succeeded (the register held {@code expected}); a failed cas did not happen (the
 * checker drops it); an indeterminate cas may have succeeded. A read that completed with nil constrains nothing,
 * as in Knossos.
 */
public final class CasRegisterModel implements Model<Object>, UnobservedInfo {

    private final Object init;

    /** @param init the register's value before any operation (Knossos's cas-register histories use 0) */
    public CasRegisterModel(Object init) {
        this.init = Values.state(init);
    }

    @Override
    public String name() {
        return "cas-register";
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
            case "cas": {
                List<?> pair = Values.pair(op.input(), "cas-register", op);
                return Values.state(pair.get(0)).equals(state) ? Values.state(pair.get(1)) : null;
            }
            default:
                throw new IllegalArgumentException(
                        "cas-register model: unknown function '" + op.f() + "' (known: read, write, cas) in " + op);
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

    /** {@code read -> 3}, {@code write 3}, {@code cas 1 -> 2}; marked when indeterminate. */
    @Override
    public String describeOperation(Operation op) {
        return RegisterModel.describe(op);
    }
}
