package io.zkchaos.workloads.gen;

import java.util.Objects;

/**
 * One step of a nemesis schedule: start a named fault, or stop (heal) it. The run loop maps the name to a real
 * nemesis action and records what that action really did.
 *
 * @param kind  start or stop
 * @param fault the fault's name as the CLI takes it (e.g. {@code partition-leader}, {@code kill-random})
 */
public record FaultStep(Kind kind, String fault) {

    /** Whether the step starts or ends the fault. */
    public enum Kind {
        START, STOP
    }

    public FaultStep {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(fault, "fault");
    }

    public static FaultStep start(String fault) {
        return new FaultStep(Kind.START, fault);
    }

    public static FaultStep stop(String fault) {
        return new FaultStep(Kind.STOP, fault);
    }
}
