package io.zkchaos.checkers.sessions;

import java.util.List;

/**
 * One broken promise of ZooKeeper sessions.
 *
 * @param rule    {@code closed-ephemeral} (a read after a session's close saw its ephemeral), {@code expiry-bound} (an
 *                ephemeral outlived its cut-off session's timeout plus the bound), {@code event-order} (a session's
 *                events in an order the client library never delivers), {@code after-end} (an operation of a session
 *                that had ended succeeded), {@code owner} (an ephemeral a session created is owned by another one)
 * @param process the session's process
 * @param text    what happened, for people, naming the operations by process and history index
 * @param indices the history indices involved
 */
public record SessionViolation(String rule, int process, String text, List<Long> indices) {

    public SessionViolation {
        indices = List.copyOf(indices);
    }
}
