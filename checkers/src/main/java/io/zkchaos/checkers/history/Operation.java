package io.zkchaos.checkers.history;

/**
 * An invocation paired with its completion: the unit that checkers reason about.
 *
 * <p>Real-time order is the order of the history ({@link #invokeIndex}, {@link #completeIndex}), not the clock:
 * histories imported without times are still ordered. An invoke that was never completed is {@link Outcome#INFO}
 * with {@code completeIndex == -1}: it may have taken effect at any time after its invoke, or never.
 *
 * @param id            dense 0-based number of this operation among the client operations of its history
 * @param process       the client process
 * @param f             the function
 * @param key           the key, or null
 * @param input         the value of the invoke (the argument)
 * @param output        the value of the completion (the result); null for info
 * @param outcome       ok, fail or info
 * @param error         the completion's error, or null
 * @param invokeIndex   history index of the invoke
 * @param completeIndex history index of the completion, or -1 if it never completed
 * @param invokeTime    ns of the invoke, -1 if unknown
 * @param completeTime  ns of the completion, -1 if unknown or never completed
 */
public record Operation(int id, int process, String f, String key, Object input, Object output, Outcome outcome,
                        String error, long invokeIndex, long completeIndex, long invokeTime, long completeTime) {

    /** How an operation ended. */
    public enum Outcome {
        OK, FAIL, INFO
    }

    public boolean isOk() {
        return outcome == Outcome.OK;
    }

    public boolean isInfo() {
        return outcome == Outcome.INFO;
    }

    public boolean isFail() {
        return outcome == Outcome.FAIL;
    }

    /** The value that describes what the operation did: the result if it completed ok, else the argument. */
    public Object value() {
        return outcome == Outcome.OK ? output : input;
    }
}
