package io.zkchaos.workloads.election;

import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;

/**
 * The history of one candidate process (one election session), written by two threads: the recipe's thread records
 * {@code acquire} and {@code release} through this log, the leader's worker records its writes through
 * {@link #leaderThread()}. One operation is outstanding at a time: an invoke waits until the previous one completed.
 * That wait is not short: behind an {@code acquire} it lasts until the process leads again or its candidacy ends.
 *
 * <p><b>Retirement.</b> Once an operation of the process ends {@code info}, the process is retired (Jepsen's rule):
 * it records nothing more, whichever thread asks, and whatever was waiting to invoke. Two exceptions say what the
 * history needs:
 * <ul>
 *   <li>the {@code release} that ends a leadership the history shows open (an {@code acquire} ok and no
 *       {@code release} since) is still recorded once: after a leader's write ends {@code info} its release closes
 *       the interval (which the info already ended; the release only says how the process stopped);</li>
 *   <li>the leader's worker is the slot's own thread, and a leader that has not yet learned that it lost may still
 *       write: a write it invokes once its process is retired (it was preparing, or waiting behind the acquire that
 *       ended {@code info}) is recorded under the {@linkplain #successor() successor}, the number the slot's thread
 *       continues as, before that process's own candidacy begins.</li>
 * </ul>
 * Refused invokes return null and their completions are ignored.
 */
public final class CandidateLog implements ProcessLog {

    private final HistoryRecorder recorder;
    private final int process;
    private final int stride;
    private final LeaderThreadLog leaderThread = new LeaderThreadLog();
    private Op outstanding;
    private boolean retired;
    private boolean leads;
    private CandidateLog successor;

    /**
     * @param process the process number
     * @param stride  the distance to the next process number of the same slot (the workload's concurrency)
     */
    public CandidateLog(HistoryRecorder recorder, int process, int stride) {
        if (stride <= 0) {
            throw new IllegalArgumentException("stride must be positive, got " + stride);
        }
        this.recorder = recorder;
        this.process = process;
        this.stride = stride;
    }

    @Override
    public int process() {
        return process;
    }

    /** For the recipe's thread: records an invoke unless the process is retired (see the class comment). */
    @Override
    public Op invoke(String f, Object value) {
        return invokeUnlessRetired(f, value);
    }

    @Override
    public synchronized boolean complete(String f, OpType type, Object value, String error) {
        if (outstanding == null || !outstanding.f().equals(f)) {
            return false;
        }
        recorder.complete(outstanding, type, value, error);
        outstanding = null;
        if (type == OpType.INFO) {
            retired = true;
        } else if (type == OpType.OK && f.equals("acquire")) {
            leads = true;
        }
        notifyAll();
        return true;
    }

    /** Whether an operation of this process ended info: it records nothing more (but the closing release). */
    public synchronized boolean isRetired() {
        return retired;
    }

    /** The log the leader's worker writes through: this process's, or once it is retired its successor's. */
    public ProcessLog leaderThread() {
        return leaderThread;
    }

    /** The slot's next process ({@code process + stride}), which takes over once this one is retired. */
    public synchronized CandidateLog successor() {
        if (successor == null) {
            successor = new CandidateLog(recorder, process + stride, stride);
        }
        return successor;
    }

    /** The first process of the slot, from this one on, that is not retired: where the slot's next session goes. */
    public CandidateLog firstLive() {
        CandidateLog log = this;
        while (log.isRetired()) {
            log = log.successor();
        }
        return log;
    }

    private synchronized Op invokeUnlessRetired(String f, Object value) {
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
        boolean closingRelease = f.equals("release") && leads;
        if (retired && !closingRelease) {
            return null;
        }
        if (f.equals("release")) {
            leads = false;
        }
        outstanding = recorder.invoke(process, f, null, value);
        return outstanding;
    }

    /** The worker's view: its operation goes under the first process of the slot that is not retired. */
    private final class LeaderThreadLog implements ProcessLog {

        private CandidateLog last; // the log of the worker's latest invoke (one worker thread)

        @Override
        public int process() {
            return firstLive().process();
        }

        @Override
        public Op invoke(String f, Object value) {
            CandidateLog log = CandidateLog.this;
            while (true) {
                Op op = log.invokeUnlessRetired(f, value);
                if (op != null) {
                    last = log;
                    return op;
                }
                log = log.successor(); // retired while the worker prepared or waited: the slot's thread goes on
            }
        }

        @Override
        public boolean complete(String f, OpType type, Object value, String error) {
            return last != null && last.complete(f, type, value, error);
        }
    }
}
