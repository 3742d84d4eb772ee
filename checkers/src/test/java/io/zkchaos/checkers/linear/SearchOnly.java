package io.zkchaos.checkers.linear;

import io.zkchaos.checkers.history.Operation;
import io.zkchaos.checkers.model.Model;
import java.util.List;

/**
 * A model without its {@link io.zkchaos.checkers.model.UnobservedInfo} pre-pass (the wrapper does not implement it):
 * the search alone must cope with the indeterminate operations, so that its own pruning is what a test exercises.
 */
final class SearchOnly {

    private SearchOnly() {
    }

    static Model<Object> of(Model<Object> inner) {
        return new Model<>() {
            public String name() {
                return inner.name();
            }

            public Object init() {
                return inner.init();
            }

            public Object step(Object state, Operation op) {
                return inner.step(state, op);
            }

            public boolean isReadOnly(Operation op) {
                return inner.isReadOnly(op);
            }

            public List<List<Operation>> partition(List<Operation> operations) {
                return inner.partition(operations);
            }
        };
    }
}
