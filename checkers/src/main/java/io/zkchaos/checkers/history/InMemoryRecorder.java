package io.zkchaos.checkers.history;

import java.util.ArrayList;
import java.util.List;

/** A recorder that keeps the history in memory; for tests and for checking right after a short run. */
public final class InMemoryRecorder implements HistoryRecorder {

    private final List<Op> ops = new ArrayList<>();
    private final long startNanos = System.nanoTime();
    private boolean closed;

    @Override
    public synchronized Op invoke(int process, String f, String key, Object value) {
        return add(new Op(ops.size(), process, OpType.INVOKE, f, key, value, null, now()));
    }

    @Override
    public synchronized Op complete(Op invoke, OpType type, Object value, String error) {
        if (type == OpType.INVOKE) {
            throw new IllegalArgumentException("a completion must be ok, fail or info");
        }
        return add(new Op(ops.size(), invoke.process(), type, invoke.f(), invoke.key(), value, error, now()));
    }

    @Override
    public synchronized Op nemesis(OpType type, String f, Object value) {
        return add(new Op(ops.size(), Op.NEMESIS, type, f, null, value, null, now()));
    }

    private long now() {
        return System.nanoTime() - startNanos;
    }

    private Op add(Op op) {
        if (closed) {
            throw new IllegalStateException("recorder is closed");
        }
        ops.add(op);
        return op;
    }

    /** A snapshot of what was recorded so far, validated. */
    public synchronized History history() {
        return History.of(new ArrayList<>(ops));
    }

    @Override
    public synchronized void close() {
        closed = true;
    }
}
