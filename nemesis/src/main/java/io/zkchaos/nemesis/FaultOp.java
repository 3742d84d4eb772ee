package io.zkchaos.nemesis;

import java.util.Objects;

/**
 * One operation of a nemesis schedule, as in Jepsen: start a named fault, or stop (heal) it. A {@link Nemesis} turns
 * it into real actions and answers with a {@link FaultRecord} of what it really did.
 *
 * @param kind  start or stop
 * @param fault the fault's name as the CLI takes it (e.g. {@code isolate-leader}, {@code kill-random})
 */
public record FaultOp(Kind kind, String fault) {

    /** Whether the operation starts or ends the fault. */
    public enum Kind {
        START, STOP
    }

    public FaultOp {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(fault, "fault");
    }

    public static FaultOp start(String fault) {
        return new FaultOp(Kind.START, fault);
    }

    public static FaultOp stop(String fault) {
        return new FaultOp(Kind.STOP, fault);
    }
}
