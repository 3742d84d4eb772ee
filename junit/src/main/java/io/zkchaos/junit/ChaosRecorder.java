package io.zkchaos.junit;

/**
 * Records operations into the run's history with Jepsen's semantics, for callers that run their own threads.
 *
 * <p>A process is a logical client: one thread at a time, one session, one operation in flight. Record the
 * operation with {@link #invoke} before calling the system, then complete it exactly once:
 * {@link PendingOperation#ok ok} when it happened, {@link PendingOperation#fail fail} only when it certainly did not
 * (ZooKeeper said no: a bad version, a node that exists), {@link PendingOperation#info info} when it is unknown
 * (connection loss, session expiry, a timeout, any exception you did not classify). After an {@code info} the process
 * is retired: close its session and go on under a new process number. The recorder enforces that: invoking on a
 * retired process, or on one with an operation in flight, throws {@link IllegalStateException}.
 */
public interface ChaosRecorder {

    /** Records that {@code process} invokes {@code f} with {@code value} (plain data: numbers, strings, lists...). */
    PendingOperation invoke(int process, String f, Object value);

    /** The same on a key, for models checked per key ({@code kv}, {@code multi-register}). */
    PendingOperation invoke(int process, String f, String key, Object value);
}
