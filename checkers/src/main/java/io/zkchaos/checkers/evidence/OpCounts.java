package io.zkchaos.checkers.evidence;

import io.zkchaos.checkers.history.Operation;

/**
 * How a set of operations ended: acknowledged ({@code ok}), certainly not done ({@code fail}), or unknown
 * ({@code info}, also an operation that never completed).
 */
public record OpCounts(long ok, long fail, long info) {

    public static final OpCounts NONE = new OpCounts(0, 0, 0);

    public long total() {
        return ok + fail + info;
    }

    /** These counts with {@code op} added. */
    public OpCounts plus(Operation op) {
        return switch (op.outcome()) {
            case OK -> new OpCounts(ok + 1, fail, info);
            case FAIL -> new OpCounts(ok, fail + 1, info);
            case INFO -> new OpCounts(ok, fail, info + 1);
        };
    }

    public OpCounts plus(OpCounts o) {
        return new OpCounts(ok + o.ok, fail + o.fail, info + o.info);
    }

    /** {@code 12 ok / 3 fail / 1 info}. */
    @Override
    public String toString() {
        return ok + " ok / " + fail + " fail / " + info + " info";
    }
}
