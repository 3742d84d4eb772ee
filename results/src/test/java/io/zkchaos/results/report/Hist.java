package io.zkchaos.results.report;

import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Small histories written by hand for the report's tests: entries numbered in order, times in milliseconds. */
final class Hist {

    private final List<Op> ops = new ArrayList<>();
    private final Map<Integer, Op> pending = new HashMap<>();

    Hist invoke(int process, String f, String key, Object value, long ms) {
        Op op = new Op(ops.size(), process, OpType.INVOKE, f, key, value, null, ms * 1_000_000L);
        ops.add(op);
        pending.put(process, op);
        return this;
    }

    Hist invoke(int process, String f, Object value, long ms) {
        return invoke(process, f, null, value, ms);
    }

    Hist ok(int process, Object value, long ms) {
        return complete(process, OpType.OK, value, null, ms);
    }

    Hist fail(int process, long ms) {
        return complete(process, OpType.FAIL, null, "rejected", ms);
    }

    Hist info(int process, long ms) {
        return complete(process, OpType.INFO, null, "timeout", ms);
    }

    /** A nemesis action: invoke at {@code startMs}, info at {@code endMs} with what it did. */
    Hist nemesis(String f, Object did, long startMs, long endMs) {
        ops.add(new Op(ops.size(), Op.NEMESIS, OpType.INVOKE, f, null, f, null, startMs * 1_000_000L));
        ops.add(new Op(ops.size(), Op.NEMESIS, OpType.INFO, f, null, did, null, endMs * 1_000_000L));
        return this;
    }

    private Hist complete(int process, OpType type, Object value, String error, long ms) {
        Op inv = pending.remove(process);
        ops.add(new Op(ops.size(), process, type, inv.f(), inv.key(), value, error, ms * 1_000_000L));
        return this;
    }

    History build() {
        return History.of(ops);
    }

    /** An ordered map literal. */
    static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    /** A partition as the harness records it: {@code isolate n3 from {n1, n2}}. */
    static Map<String, Object> isolate(String node, String a, String b) {
        return map("fault", "isolate-leader", "description", "isolate " + node + " from {" + a + ", " + b + "}",
                "nodes", List.of(a, b, node), "groups", List.of(List.of(node), List.of(a, b)),
                "grudge", map(a, List.of(node), b, List.of(node), node, List.of(a, b)));
    }

    static Map<String, Object> healed() {
        return map("fault", "heal", "description", "heal: all connected", "nodes", List.of(), "groups", List.of(),
                "grudge", map());
    }
}
