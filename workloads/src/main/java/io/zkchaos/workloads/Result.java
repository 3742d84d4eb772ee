package io.zkchaos.workloads;

import io.zkchaos.checkers.history.OpType;
import java.util.Objects;

/**
 * How an operation ended, as a client saw it: {@code ok} (it happened; value is the result), {@code fail} (it
 * certainly did not happen; error says why) or {@code info} (unknown; error says why).
 */
public record Result(OpType type, Object value, String error) {

    public Result {
        Objects.requireNonNull(type, "type");
        if (type == OpType.INVOKE) {
            throw new IllegalArgumentException("a result is ok, fail or info");
        }
    }

    public static Result ok(Object value) {
        return new Result(OpType.OK, value, null);
    }

    public static Result fail(String error) {
        return new Result(OpType.FAIL, null, error);
    }

    public static Result info(String error) {
        return new Result(OpType.INFO, null, error);
    }

    /** Suffix of a fail whose request was never sent because the session failed first. */
    public static final String UNSENT = " before the write was sent";

    /**
     * A definite fail because the write was never sent, though the session is in doubt: the process that saw it is
     * retired like one that saw info.
     */
    public static Result failUnsent(String error) {
        return fail(error + UNSENT);
    }

    /** Whether the process that saw this must be retired (info, or a fail caused by a session error). */
    public boolean retiresProcess() {
        return type == OpType.INFO || type == OpType.FAIL && error != null && error.endsWith(UNSENT);
    }

    public boolean isInfo() {
        return type == OpType.INFO;
    }
}
