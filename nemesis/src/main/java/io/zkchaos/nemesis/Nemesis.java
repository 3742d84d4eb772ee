package io.zkchaos.nemesis;

/**
 * Jepsen's nemesis: takes a fault operation, does it, and answers with what it really did, as data. {@link #healAll}
 * undoes everything any operation did. Nothing here knows ZooKeeper or any workload: a nemesis acts through a
 * {@link NemesisTarget}.
 *
 * <p>One thread drives a nemesis (the {@link NemesisDriver}); implementations need not be thread-safe.
 */
public interface Nemesis {

    /**
     * Does {@code op}.
     *
     * @return what was really done
     * @throws IllegalArgumentException for a fault this nemesis does not know
     * @throws IllegalStateException    when the fault cannot act now (e.g. no leader to aim at)
     */
    FaultRecord invoke(FaultOp op);

    /** Heals every link, resumes every paused node and client process, and starts every node that is down. */
    FaultRecord healAll();

    /**
     * Reports what the nemesis does between operations, on its own (a protocol trigger that fires at a packet),
     * as records; called from another thread than the driver's. Does nothing by default.
     */
    default void onEvent(java.util.function.Consumer<FaultRecord> listener) {
    }
}
