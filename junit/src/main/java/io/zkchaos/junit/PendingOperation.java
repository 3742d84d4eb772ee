package io.zkchaos.junit;

/**
 * An operation that was invoked and awaits its completion; complete it exactly once (a second completion throws
 * {@link IllegalStateException}). Values are plain data: {@code null}, numbers, strings, booleans, lists and maps
 * of those.
 */
public interface PendingOperation {

    /** The process that invoked it. */
    int process();

    /** It happened; {@code value} is its result (a read's value; for a write or cas, what it wrote, as invoked). */
    void ok(Object value);

    /** It certainly did not happen; {@code why} says so ({@code bad-version}). */
    void fail(String why);

    /** Unknown whether it happened; {@code why} says why ({@code connection-loss}). Retires the process. */
    void info(String why);
}
