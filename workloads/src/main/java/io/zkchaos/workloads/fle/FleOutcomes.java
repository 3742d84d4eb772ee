package io.zkchaos.workloads.fle;

import io.zkchaos.checkers.history.OpType;
import io.zkchaos.fle.client.FleException;
import io.zkchaos.fle.client.IndeterminateException;
import io.zkchaos.fle.client.RejectedException;
import io.zkchaos.workloads.Result;

/**
 * Maps how an fle client call ended to an honest outcome. The client library already tells the two apart:
 * {@link IndeterminateException} (no answer in time, the connection lost, the node lost its leader first) is
 * {@code info}; {@link RejectedException} (certainly not done) is {@code fail}.
 *
 * <p>A rejection other than a compare-and-set mismatch says the node itself cannot serve now (it elects, it is not
 * synced, it cannot be reached): the process is retired with it, so that its replacement moves to the next node —
 * a process stays on one node, because its plain reads are judged as one session's.
 */
public final class FleOutcomes {

    /** How the nodes begin the reason of a cas that found another value ({@code KvState}). */
    static final String CAS_MISMATCH = "cas mismatch";

    private FleOutcomes() {
    }

    /** The outcome of a call that threw {@code e}. */
    public static Result of(FleException e) {
        String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        if (e instanceof IndeterminateException) {
            return Result.info(why);
        }
        if (why.startsWith(CAS_MISMATCH)) {
            return Result.fail(why);
        }
        return new Result(OpType.FAIL, null, why, true);
    }

    /** A value the workloads wrote (a decimal long), or null for an absent key. */
    static Long decode(String value) {
        return value == null ? null : Long.parseLong(value);
    }
}
