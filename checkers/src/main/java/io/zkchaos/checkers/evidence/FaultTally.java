package io.zkchaos.checkers.evidence;

import java.util.List;
import java.util.Objects;

/**
 * What the nemesis did with one fault over a run.
 *
 * @param fault          the fault's name, e.g. {@code isolate-leader}
 * @param applied        starts that acted on at least one node
 * @param couldNotAct    starts that could not act on this run (no leader to aim at, nothing to act on)
 * @param failed         starts that broke with an error (a harness problem, not the system's)
 * @param reasons        why starts could not act or failed, each reason once, in order of first appearance
 * @param okUnder        client operations acknowledged while this fault was in force ({@link Phase#UNDER_FAULT})
 * @param invokedUnder   client operations in flight while it was in force, however they ended
 * @param triggersArmed  protocol triggers it armed (faults at a protocol moment)
 * @param triggersFired  of those, the ones that fired
 */
public record FaultTally(String fault, long applied, long couldNotAct, long failed, List<String> reasons,
                         long okUnder, long invokedUnder, long triggersArmed, long triggersFired) {

    public FaultTally {
        Objects.requireNonNull(fault, "fault");
        reasons = List.copyOf(reasons);
    }

    /** Starts attempted. */
    public long attempted() {
        return applied + couldNotAct + failed;
    }
}
