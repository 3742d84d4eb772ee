package io.zkchaos.checkers.linear;

import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A tiny history builder for hand-made test histories: entries get consecutive indices. */
final class Hb {

    private final List<Op> ops = new ArrayList<>();
    private final Map<Integer, Op> open = new HashMap<>();

    Hb invoke(int process, String f, Object value) {
        return invoke(process, f, null, value);
    }

    Hb invoke(int process, String f, String key, Object value) {
        Op op = new Op(ops.size(), process, OpType.INVOKE, f, key, value, null, -1);
        ops.add(op);
        open.put(process, op);
        return this;
    }

    Hb ok(int process, Object value) {
        return complete(process, OpType.OK, value);
    }

    Hb fail(int process) {
        return complete(process, OpType.FAIL, null);
    }

    Hb info(int process) {
        return complete(process, OpType.INFO, null);
    }

    private Hb complete(int process, OpType type, Object value) {
        Op inv = open.remove(process);
        Object v = type == OpType.OK ? value : inv.value();
        ops.add(new Op(ops.size(), process, type, inv.f(), inv.key(), v, type == OpType.OK ? null : "timeout", -1));
        return this;
    }

    /** A whole operation with nothing concurrent. */
    Hb op(int process, String f, Object in, Object out) {
        return invoke(process, f, in).ok(process, out);
    }

    History build() {
        return History.of(ops);
    }
}
