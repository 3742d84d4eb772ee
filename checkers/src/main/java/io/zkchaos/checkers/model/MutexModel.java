package io.zkchaos.checkers.model;

import io.zkchaos.checkers.history.Operation;
import java.util.List;

/**
 * A lock without owners, as Knossos's mutex: {@code acquire} takes effect only when the lock is free,
 * {@code release} only when it is held. Partitioned by key (one lock per key) when operations carry one.
 */
public final class MutexModel implements Model<Boolean> {

    @Override
    public String name() {
        return "mutex";
    }

    /** Free. */
    @Override
    public Boolean init() {
        return Boolean.FALSE;
    }

    @Override
    public Boolean step(Boolean held, Operation op) {
        switch (op.f()) {
            case "acquire":
                return held ? null : Boolean.TRUE;
            case "release":
                return held ? Boolean.FALSE : null;
            default:
                throw new IllegalArgumentException(
                        "mutex model: unknown function '" + op.f() + "' (known: acquire, release) in " + op);
        }
    }

    @Override
    public List<List<Operation>> partition(List<Operation> operations) {
        return ByKey.partition(operations);
    }

    @Override
    public boolean partitionsByKey() {
        return true;
    }

    @Override
    public String describeState(Boolean held) {
        return held ? "held" : "free";
    }

    /** {@code acquire} or {@code release}, with the lock's key if any. */
    @Override
    public String describeOperation(Operation op) {
        String s = op.f() + (op.key() == null ? "" : "[" + op.key() + "]");
        return op.isInfo() ? s + " (indeterminate)" : s;
    }
}
