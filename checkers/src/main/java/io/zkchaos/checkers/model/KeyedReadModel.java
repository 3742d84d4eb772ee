package io.zkchaos.checkers.model;

import io.zkchaos.checkers.history.Operation;
import java.util.List;

/**
 * What the register and set models share: {@code read} is the one read-only function, and each key is an
 * independent object ({@link ByKey#partition}).
 *
 * @param <S> the state type
 */
abstract class KeyedReadModel<S> implements Model<S>, UnobservedInfo {

    @Override
    public final boolean isReadOnly(Operation op) {
        return "read".equals(op.f());
    }

    @Override
    public final List<List<Operation>> partition(List<Operation> operations) {
        return ByKey.partition(operations);
    }

    @Override
    public final boolean partitionsByKey() {
        return true;
    }
}
