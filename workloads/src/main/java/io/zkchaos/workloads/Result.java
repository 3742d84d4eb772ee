package io.zkchaos.workloads;

import io.zkchaos.checkers.history.OpType;
import java.util.Objects;

/**
 * How an operation ended, as a client saw it: {@code ok} (it happened; value is the result), {@code fail} (it
 * certainly did not happen; error says why) or {@code info} (unknown; error says why).
 *
 * @param type           ok, fail or info
 * @param value          the result of an ok operation
 * @param error          why it failed or is unknown
 * @param retiresProcess whether the process that saw it must be retired and replaced (one process = one session):
 *                       always for info; for a fail whose request was never sent because the session failed first
 */
public record Result(OpType type, Object value, String error, boolean retiresProcess) {

    public Result {
        Objects.requireNonNull(type, "type");
        if (type == OpType.INVOKE) {
            throw new IllegalArgumentException("a result is ok, fail or info");
        }
        if (type == OpType.INFO && !retiresProcess) {
            throw new IllegalArgumentException("an info result always retires its process");
        }
    }

    public static Result ok(Object value) {
        return new Result(OpType.OK, value, null, false);
    }

    public static Result fail(String error) {
        return new Result(OpType.FAIL, null, error, false);
    }

    public static Result info(String error) {
        return new Result(OpType.INFO, null, error, true);
    }

    /**
     * A definite fail because the write was never sent, though the session is in doubt: the process that saw it is
     * retired like one that saw info. The error says so.
     */
    public static Result failUnsent(String error) {
        return new Result(OpType.FAIL, null, error + " before the write was sent", true);
    }

    public boolean isInfo() {
        return type == OpType.INFO;
    }
}
