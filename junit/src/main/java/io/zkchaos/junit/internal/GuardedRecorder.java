package io.zkchaos.junit.internal;

import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.junit.ChaosRecorder;
import io.zkchaos.junit.PendingOperation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The user's recorder over the run's history: Jepsen's rules kept, not hoped for. One operation in flight per
 * process, each completed once, and a process retired by an {@code info} never invokes again.
 */
final class GuardedRecorder implements ChaosRecorder {

    private final HistoryRecorder history;
    /** Per process: the operation in flight, or {@link #RETIRED}; absent when idle. */
    private final Map<Integer, Object> state = new ConcurrentHashMap<>();
    private static final Object RETIRED = new Object();
    private final AtomicInteger invoked = new AtomicInteger();
    private final AtomicInteger ok = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private final AtomicInteger indeterminate = new AtomicInteger();
    private volatile String lastError;

    GuardedRecorder(HistoryRecorder history) {
        this.history = Objects.requireNonNull(history, "history");
    }

    @Override
    public PendingOperation invoke(int process, String f, Object value) {
        return invoke(process, f, null, value);
    }

    @Override
    public PendingOperation invoke(int process, String f, String key, Object value) {
        Objects.requireNonNull(f, "f");
        if (process < 0) {
            throw new IllegalArgumentException("process numbers are 0 or more, got " + process);
        }
        Pending p = new Pending(process);
        Object before = state.putIfAbsent(process, p);
        if (before == RETIRED) {
            throw new IllegalStateException("process " + process + " was retired by an info; go on under a new "
                    + "process number with a new session (one process, one session)");
        }
        if (before != null) {
            throw new IllegalStateException("process " + process + " already has an operation in flight ("
                    + ((Pending) before).invoke.f() + "); complete it first");
        }
        p.invoke = history.invoke(process, f, key, value);
        invoked.incrementAndGet();
        return p;
    }

    /** How the operations recorded so far ended. */
    OperationTally tally() {
        return new OperationTally(invoked.get(), ok.get(), failed.get(), indeterminate.get(), lastError);
    }

    /** Whether {@code process} was retired by an info. */
    boolean retired(int process) {
        return state.get(process) == RETIRED;
    }

    /** The operation {@code process} has in flight, or null. */
    PendingOperation inFlight(int process) {
        return state.get(process) instanceof Pending p ? p : null;
    }

    /** Every operation still in flight. */
    List<PendingOperation> allInFlight() {
        List<PendingOperation> out = new ArrayList<>();
        state.values().forEach(v -> {
            if (v instanceof Pending p) {
                out.add(p);
            }
        });
        return out;
    }

    private final class Pending implements PendingOperation {
        private final int process;
        private final AtomicBoolean done = new AtomicBoolean();
        private volatile Op invoke;

        Pending(int process) {
            this.process = process;
        }

        @Override
        public int process() {
            return process;
        }

        @Override
        public void ok(Object value) {
            complete(OpType.OK, value, null);
        }

        @Override
        public void fail(String why) {
            complete(OpType.FAIL, null, why);
        }

        @Override
        public void info(String why) {
            complete(OpType.INFO, null, why);
        }

        private void complete(OpType type, Object value, String error) {
            if (!done.compareAndSet(false, true)) {
                throw new IllegalStateException("the " + invoke.f() + " of process " + process
                        + " was completed already");
            }
            history.complete(invoke, type, value, error);
            switch (type) {
                case OK -> ok.incrementAndGet();
                case FAIL -> failed.incrementAndGet();
                default -> indeterminate.incrementAndGet();
            }
            if (error != null) {
                lastError = error;
            }
            // retire before the process can invoke again: an info ends the process for good
            if (type == OpType.INFO) {
                state.put(process, RETIRED);
            } else {
                state.remove(process, this);
            }
        }
    }
}
