package io.zkchaos.checkers.linear;

import io.zkchaos.checkers.history.Operation;

/**
 * An operation as an explanation shows it.
 *
 * @param id            the operation's id in its history
 * @param process       the client process
 * @param f             the function
 * @param key           the key, or null
 * @param value         the result if it completed ok, else its argument
 * @param outcome       {@code ok} or {@code info}
 * @param invokeIndex   history index of its invoke
 * @param completeIndex history index of its completion, -1 if it never completed
 * @param description   the model's one-line description of it
 */
public record OpView(int id, int process, String f, String key, Object value, String outcome, long invokeIndex,
                     long completeIndex, String description) {

    static OpView of(Operation op, String description) {
        return new OpView(op.id(), op.process(), op.f(), op.key(), op.value(),
                op.outcome().name().toLowerCase(java.util.Locale.ROOT), op.invokeIndex(), op.completeIndex(),
                description);
    }
}
