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
 * @param felt           of the starts applied, those the system felt: some measure of it taken from the system says
 *                       so (the process seen gone, the disk's errors returned, the clock read back, the proxy's
 *                       resets), or none was taken (an older history, a fault or backend not measured): unknown counts
 *                       as felt
 * @param measured       of the starts applied, those of which something was measured (the rest count as felt unseen)
 * @param unfelt         for each start applied and not felt, what was measured, e.g.
 *                       {@code disk-eio-fsync on n2 failed no fsync (0 writes, 0 fsyncs in its window)}
 */
public record FaultTally(String fault, long applied, long couldNotAct, long failed, List<String> reasons,
                         long okUnder, long invokedUnder, long triggersArmed, long triggersFired, long felt,
                         long measured, List<String> unfelt) {

    public FaultTally {
        Objects.requireNonNull(fault, "fault");
        reasons = List.copyOf(reasons);
        unfelt = unfelt == null ? List.of() : List.copyOf(unfelt);
    }

    /** A tally with nothing measured of what was felt: every start applied counts as felt. */
    public FaultTally(String fault, long applied, long couldNotAct, long failed, List<String> reasons,
                      long okUnder, long invokedUnder, long triggersArmed, long triggersFired) {
        this(fault, applied, couldNotAct, failed, reasons, okUnder, invokedUnder, triggersArmed, triggersFired,
                applied, 0, List.of());
    }

    /** Starts attempted. */
    public long attempted() {
        return applied + couldNotAct + failed;
    }
}
