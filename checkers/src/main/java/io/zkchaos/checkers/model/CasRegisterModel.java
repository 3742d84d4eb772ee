package io.zkchaos.checkers.model;

import io.zkchaos.checkers.history.Operation;
import java.util.List;

/**
 * A compare-and-set register: {@code read}, {@code write}, and {@code cas} with value {@code [expected new]},
 * partitioned by key when operations carry one.
 *
 * <p>A cas that completed ok succeeded (the register held {@code expected}); a failed cas did not happen (the
 * checker drops it); an indeterminate cas may have succeeded. A read that completed with nil constrains nothing,
 * as in Knossos.
 */
public final class CasRegisterModel extends RegisterBase {

    /** @param init the register's value before any operation (Knossos's cas-register histories use 0) */
    public CasRegisterModel(Object init) {
        super("cas-register", init, "read, write, cas");
    }

    @Override
    Object stepOther(Object state, Operation op) {
        if (!op.f().equals("cas")) {
            return super.stepOther(state, op);
        }
        List<?> pair = Values.pair(op.input(), "cas-register", op);
        return Values.state(pair.get(0)).equals(state) ? Values.state(pair.get(1)) : null;
    }
}
