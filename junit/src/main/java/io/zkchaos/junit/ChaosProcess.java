package io.zkchaos.junit;

import java.util.concurrent.Callable;

/**
 * One client process in {@link ChaosContext#runClients}: a number, and a way to record what it does. Used by its
 * own thread only.
 */
public interface ChaosProcess {

    /** The process number in the history (0 .. concurrency-1 at first; a replacement gets old + concurrency). */
    int id();

    /** True until the run ends. */
    boolean running();

    /**
     * Records {@code f(value)} as one operation around {@code body}, with Jepsen's semantics: {@code ok} when the
     * body returns, with the value it returns (or {@code value} when it returns null, as Jepsen keeps the invoked
     * value of a write); {@code fail} when it throws {@link OperationFailed}, which is thrown on; {@code info} when
     * it throws anything else, which retires this process and is thrown on (return from the step; the loop opens a
     * new client under a new process).
     *
     * @return what the body returned
     */
    <T> T call(String f, Object value, Callable<T> body) throws Exception;

    /** The same on a key, for models checked per key. */
    <T> T call(String f, String key, Object value, Callable<T> body) throws Exception;

    /** Invokes {@code f(value)} for completing by hand, when {@link #call} does not fit. */
    PendingOperation invoke(String f, Object value);
}
