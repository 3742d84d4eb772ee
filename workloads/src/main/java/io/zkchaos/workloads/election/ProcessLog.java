package io.zkchaos.workloads.election;

import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;

/**
 * Where a candidate process's operations are recorded, one outstanding at a time: an invoke waits until the
 * previous operation of the process is completed. See {@link CandidateLog} for the rules (what a retired process may
 * still record, and where a leader's work goes once its process is retired).
 */
public interface ProcessLog {

    /** The process number the next operation would be recorded under. */
    int process();

    /**
     * Records an invoke of {@code f} once nothing else of the process is outstanding.
     *
     * @return the invoke, or null if it was not recorded because the process is retired (see {@link CandidateLog})
     */
    Op invoke(String f, Object value);

    /** Completes the outstanding operation if it is {@code f} and this log invoked it; returns whether it did. */
    boolean complete(String f, OpType type, Object value, String error);
}
