package io.zkchaos.fle.sched;

/**
 * The one thread a node's protocol runs on, and its clock. Every protocol object of a node (election, leader,
 * follower, peer) is touched only from tasks of its scheduler, so none of them needs a lock. A real node runs it on
 * one thread with the wall clock ({@link ExecutorScheduler}); the tests run every node of a group on one virtual clock,
 * so that a run is a deterministic function of its inputs.
 *
 * <p>Tasks run one at a time, in the order of their due time, and tasks due at the same time in the order they were
 * submitted.
 */
public interface Scheduler {

    /** Milliseconds on a monotonic clock (only differences mean anything). */
    long now();

    /** Runs {@code task} after the tasks already due. Never blocks, never runs the task in the caller. */
    void execute(Runnable task);

    /** Runs {@code task} once, {@code delayMs} from now, unless cancelled first. */
    Cancellable schedule(long delayMs, Runnable task);

    /** A scheduled task that can be called off; cancelling a task that has run or was cancelled does nothing. */
    interface Cancellable {
        void cancel();

        Cancellable NONE = () -> {
        };
    }
}
