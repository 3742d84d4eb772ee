package io.zkchaos.checkers.model;

import io.zkchaos.checkers.history.Operation;
import java.util.List;
import java.util.function.Predicate;

/**
 * Optional for a {@link Model}: recognises indeterminate operations whose effect no completed operation of the
 * history could have observed, so that the checker can leave them out.
 *
 * <p>Why this matters: an indeterminate operation may take effect at any point after its invoke or never, so every
 * such operation still pending doubles the configurations a search may have to visit. Timeouts during a network
 * partition typically leave many writes that in fact never happened and that no read ever saw; without this they
 * make even small histories exponential.
 *
 * <p>Contract: dropping every operation the predicate accepts must not change whether the history is linearizable.
 * That holds for an operation whose effect, were it linearized anywhere, would have to be seen by a later read
 * before being overwritten — and no read saw it.
 */
public interface UnobservedInfo {

    /**
     * A test for the indeterminate operations of {@code operations} that no operation in {@code operations} could
     * have observed. It is only applied to indeterminate operations.
     */
    Predicate<Operation> unobserved(List<Operation> operations);
}
