package io.zkchaos.nemesis;

import java.util.Objects;

/**
 * One operation of a nemesis schedule, as in Jepsen: start a named fault, or stop (heal) it. A {@link Nemesis} turns
 * it into real actions and answers with a {@link FaultRecord} of what it really did.
 *
 * @param kind    start or stop
 * @param fault   the fault's name as the CLI takes it (e.g. {@code isolate-leader}, {@code kill-random})
 * @param aim     the choices to make again (an earlier run's {@link FaultRecord#aim()}), or null to draw them from
 *                the seed
 * @param targets how {@code aim}'s nodes are found now; null when there is no aim
 */
public record FaultOp(Kind kind, String fault, Aim aim, Aim.Targets targets) {

    /** Whether the operation starts or ends the fault. */
    public enum Kind {
        START, STOP
    }

    public FaultOp {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(fault, "fault");
        targets = aim == null ? null : targets == null ? Aim.Targets.ROLE : targets;
    }

    /** An operation whose choices are drawn from the seed. */
    public FaultOp(Kind kind, String fault) {
        this(kind, fault, null, null);
    }

    public static FaultOp start(String fault) {
        return new FaultOp(Kind.START, fault);
    }

    public static FaultOp stop(String fault) {
        return new FaultOp(Kind.STOP, fault);
    }
}
