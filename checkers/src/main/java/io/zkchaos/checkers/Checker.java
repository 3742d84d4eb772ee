package io.zkchaos.checkers;

import io.zkchaos.checkers.history.History;

/**
 * A pure function from a history to a verdict. Implementations must not mutate the history and should be safe to
 * call from several threads.
 */
public interface Checker {

    /** A short stable name, as the CLI takes it ({@code linearizable}, {@code single-leader}, ...). */
    String name();

    CheckResult check(History history);
}
