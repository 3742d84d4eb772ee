package io.zkchaos.checkers.history;

/**
 * Where a running test writes its history as it happens. Implementations assign each entry the next index and the
 * time since the recorder started, and must be thread-safe: every client process and the nemesis record through one
 * recorder.
 *
 * <p>Durable implementations write every entry as it comes, so a run that crashes still leaves a checkable history.
 */
public interface HistoryRecorder extends AutoCloseable {

    /** Records that {@code process} invokes {@code f} on {@code key} (null if unkeyed) with {@code value}. */
    Op invoke(int process, String f, String key, Object value);

    /**
     * Records the completion of {@code invoke}: {@code type} ok, fail or info; {@code value} the result;
     * {@code error} why it failed or is unknown (null if ok).
     */
    Op complete(Op invoke, OpType type, Object value, String error);

    /** Records a nemesis action ({@code invoke} when it starts, {@code info} with what it really did when done). */
    Op nemesis(OpType type, String f, Object value);

    /** Flushes and releases the underlying storage. */
    @Override
    void close();
}
