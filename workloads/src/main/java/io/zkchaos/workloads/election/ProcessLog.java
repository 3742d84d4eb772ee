package io.zkchaos.workloads.election;

import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;

/**
 * One process's view of the recorder when several threads act for it (the recipe's thread records acquire and
 * release, a leader's worker records its writes): it keeps at most one operation outstanding, so an invoke waits
 * until the previous operation of the process is completed. Every operation a caller can have outstanding is bounded
 * by the request timeout, so the wait is bounded too.
 */
public final class ProcessLog {

    private final HistoryRecorder recorder;
    private final int process;
    private Op outstanding;

    public ProcessLog(HistoryRecorder recorder, int process) {
        this.recorder = recorder;
        this.process = process;
    }

    public int process() {
        return process;
    }

    /** Records an invoke once nothing else of this process is outstanding. */
    public synchronized Op invoke(String f, Object value) {
        boolean interrupted = false;
        while (outstanding != null) {
            try {
                wait();
            } catch (InterruptedException e) {
                interrupted = true; // the recording must still happen: the history must stay complete
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        outstanding = recorder.invoke(process, f, null, value);
        return outstanding;
    }

    /** Completes the outstanding operation if it is {@code f}; returns whether it did. */
    public synchronized boolean complete(String f, OpType type, Object value, String error) {
        if (outstanding == null || !outstanding.f().equals(f)) {
            return false;
        }
        recorder.complete(outstanding, type, value, error);
        outstanding = null;
        notifyAll();
        return true;
    }

    /** Whether {@code f} is outstanding. */
    public synchronized boolean isOutstanding(String f) {
        return outstanding != null && outstanding.f().equals(f);
    }
}
