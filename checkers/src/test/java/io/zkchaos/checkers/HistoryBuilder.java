package io.zkchaos.checkers;

import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes small histories by hand for tests (this module's and, through its test-jar, the others'): indexes are
 * assigned in order, times given in milliseconds. {@link #untimed()} writes a history without times, as an imported
 * one can be.
 */
public final class HistoryBuilder {

    private static final long NO_TIME = -1;

    private final List<Op> ops = new ArrayList<>();
    private final Map<Integer, Op> pending = new HashMap<>();

    /** A builder whose entries carry no time, for checkers that go by the order of the entries alone. */
    public static Untimed untimed() {
        return new Untimed();
    }

    public HistoryBuilder invoke(int process, String f, Object value, long ms) {
        return invoke(process, f, null, value, ms);
    }

    public HistoryBuilder invoke(int process, String f, String key, Object value, long ms) {
        return invokeAt(process, f, key, value, nanos(ms));
    }

    public HistoryBuilder ok(int process, Object value, long ms) {
        return complete(process, OpType.OK, value, null, nanos(ms));
    }

    public HistoryBuilder fail(int process, long ms) {
        return complete(process, OpType.FAIL, null, "rejected", nanos(ms));
    }

    /** A fail that says what it saw ({@code value}) and why ({@code error}). */
    public HistoryBuilder fail(int process, Object value, String error, long ms) {
        return complete(process, OpType.FAIL, value, error, nanos(ms));
    }

    public HistoryBuilder info(int process, long ms) {
        return complete(process, OpType.INFO, null, "timeout", nanos(ms));
    }

    /** invoke then ok at once. */
    public HistoryBuilder okOp(int process, String f, Object in, Object out, long ms) {
        return invoke(process, f, in, ms).ok(process, out, ms);
    }

    public HistoryBuilder nemesis(String f, long startMs, long endMs) {
        return nemesis(f, f + " done", startMs, endMs);
    }

    /** A nemesis action whose info says {@code did} (a fault record, as plain data). */
    public HistoryBuilder nemesis(String f, Object did, long startMs, long endMs) {
        ops.add(new Op(ops.size(), Op.NEMESIS, OpType.INVOKE, f, null, null, null, nanos(startMs)));
        ops.add(new Op(ops.size(), Op.NEMESIS, OpType.INFO, f, null, did, null, nanos(endMs)));
        return this;
    }

    /**
     * The nemesis' heal of {@code ending} (a fault's name, or {@code all} for the final heal), as the driver records
     * it: an invoke naming what it ends, an info with what it did.
     */
    public HistoryBuilder heal(String ending, Object did, long startMs, long endMs) {
        ops.add(new Op(ops.size(), Op.NEMESIS, OpType.INVOKE, "heal", null, ending, null, nanos(startMs)));
        ops.add(new Op(ops.size(), Op.NEMESIS, OpType.INFO, "heal", null, did, null, nanos(endMs)));
        return this;
    }

    public History build() {
        return History.of(ops);
    }

    /** A map literal with insertion order: {@code map("token", 1L, "node", "n1")}. */
    public static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    private static long nanos(long ms) {
        return ms * 1_000_000L;
    }

    private HistoryBuilder invokeAt(int process, String f, String key, Object value, long time) {
        Op op = new Op(ops.size(), process, OpType.INVOKE, f, key, value, null, time);
        ops.add(op);
        pending.put(process, op);
        return this;
    }

    private HistoryBuilder complete(int process, OpType type, Object value, String error, long time) {
        Op inv = pending.remove(process);
        if (inv == null) {
            throw new IllegalStateException("process " + process + " has nothing pending");
        }
        ops.add(new Op(ops.size(), process, type, inv.f(), inv.key(), value, error, time));
        return this;
    }

    /** The same entries without times (a separate view, so that a key is never taken for a time). */
    public static final class Untimed {

        private final HistoryBuilder b = new HistoryBuilder();

        private Untimed() {
        }

        public Untimed invoke(int process, String f, Object value) {
            return invoke(process, f, null, value);
        }

        public Untimed invoke(int process, String f, String key, Object value) {
            b.invokeAt(process, f, key, value, NO_TIME);
            return this;
        }

        public Untimed ok(int process, Object value) {
            b.complete(process, OpType.OK, value, null, NO_TIME);
            return this;
        }

        public Untimed fail(int process) {
            b.complete(process, OpType.FAIL, null, "rejected", NO_TIME);
            return this;
        }

        public Untimed info(int process) {
            b.complete(process, OpType.INFO, null, "timeout", NO_TIME);
            return this;
        }

        /** A whole operation with nothing concurrent. */
        public Untimed op(int process, String f, Object in, Object out) {
            return invoke(process, f, in).ok(process, out);
        }

        public History build() {
            return b.build();
        }
    }
}
