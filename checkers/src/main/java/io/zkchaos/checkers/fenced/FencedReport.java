package io.zkchaos.checkers.fenced;

import io.zkchaos.checkers.Findings;
import io.zkchaos.checkers.KindSet;
import io.zkchaos.checkers.evidence.PromiseTally;
import io.zkchaos.checkers.evidence.TestsPromises;
import java.util.List;
import java.util.SortedSet;

/**
 * The fenced-writes checker's findings (the {@code details} of its result).
 *
 * @param accepted      writes acknowledged (ok)
 * @param rejected      writes rejected as stale (fail)
 * @param indeterminate writes with unknown outcome (info)
 * @param logLength     entries in the final log read, or -1 when the history has none
 * @param staleLanded   distinct writes that landed stale: accepted after a write with a higher token had been
 *                      accepted (in real time, or in the store's log order) — what fencing exists to prevent
 * @param violations    every breach found
 */
public record FencedReport(int accepted, int rejected, int indeterminate, int logLength, int staleLanded,
                           List<FencedViolation> violations)
        implements Findings, TestsPromises {

    /** Fencing judged on accepted writes, on rejected ones, and on the final log. */
    @Override
    public List<PromiseTally> promises() {
        return List.of(
                new PromiseTally("accepted", "no write accepted with a token lower than one already accepted",
                        accepted),
                new PromiseTally("rejected", "a write with a stale token is rejected", rejected),
                new PromiseTally("final-log", "the log read at the end holds accepted writes in token order",
                        Math.max(0, logLength)));
    }

    @Override
    public SortedSet<String> findingKinds() {
        return new KindSet().each(violations, FencedViolation::kind).build();
    }
}
