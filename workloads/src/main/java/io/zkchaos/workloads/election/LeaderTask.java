package io.zkchaos.workloads.election;

import io.zkchaos.workloads.Target;

/**
 * Work a candidate process does while it believes it leads (the fenced writes). Each process opens its own
 * {@link Worker} for its whole life: the worker may hold a connection of its own, as a real program holds a
 * connection to the resource its lock guards, separate from the lock's session.
 */
@FunctionalInterface
public interface LeaderTask {

    /**
     * Opens process {@code process}'s worker, bounded by the target's timeouts.
     *
     * @throws Exception if what the worker needs cannot be opened in time (the process then does not start)
     */
    Worker open(int process, Target target) throws Exception;

    /** One process's worker. */
    interface Worker extends AutoCloseable {

        /**
         * Does one step as the leader of {@code term}. Called on the candidate's own thread right after it checked
         * that it still leads; records at most one operation through {@code log}; returns within the request timeout
         * plus the step's own work.
         *
         * @return false if the operation ended info: the process must be retired
         */
        boolean step(Leadership term, ProcessLog log) throws Exception;

        /** Releases what {@link LeaderTask#open} opened. Must not throw. */
        @Override
        void close();
    }
}
