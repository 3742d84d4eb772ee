package io.zkchaos.checkers.model;

import io.zkchaos.checkers.history.Operation;
import java.util.List;

/**
 * A sequential specification: a pure step function over immutable states, as in Porcupine. States must implement
 * {@code equals} and {@code hashCode} (the checker memoises on them).
 *
 * <p>Implementations must be deterministic and side-effect free; the checker calls them from several threads.
 *
 * @param <S> the state type
 */
public interface Model<S> {

    /** The model's name as the CLI takes it ({@code register}, {@code cas-register}, ...). */
    String name();

    /** The state before any operation. */
    S init();

    /**
     * The state after {@code op} takes effect in {@code state}, or {@code null} if {@code op} cannot take effect
     * there with the result it returned. For an indeterminate op ({@link Operation#isInfo()}) there is no result:
     * return the state it would leave had it taken effect as invoked, or null if it could not have.
     */
    S step(S state, Operation op);

    /**
     * Whether an indeterminate {@code op} can be dropped before checking because, having no known result, it
     * constrains nothing (a read whose answer was never seen).
     */
    default boolean isReadOnly(Operation op) {
        return false;
    }

    /**
     * Splits operations into independent sub-histories that can be checked separately (P-compositionality), e.g.
     * by key. The default is one partition.
     */
    default List<List<Operation>> partition(List<Operation> operations) {
        return List.of(operations);
    }

    /**
     * Whether {@link #partition} splits by {@link Operation#key()} and nothing else: one partition per distinct key
     * (the operations without a key forming one of their own). A checker may then partition a stored history by its
     * keys without making the operations first. The default is false.
     */
    default boolean partitionsByKey() {
        return false;
    }

    /** A short human description of a state, for explanations. */
    default String describeState(S state) {
        return String.valueOf(state);
    }

    /** A short human description of an operation, for explanations. */
    default String describeOperation(Operation op) {
        Object v = op.isOk() ? op.output() : op.input();
        return op.f() + (op.key() == null ? "" : "[" + op.key() + "]") + " " + v
                + (op.isInfo() ? " (indeterminate)" : "");
    }
}
