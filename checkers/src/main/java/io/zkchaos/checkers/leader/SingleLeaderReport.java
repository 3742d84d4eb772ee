package io.zkchaos.checkers.leader;

import io.zkchaos.checkers.Findings;
import io.zkchaos.checkers.KindSet;
import io.zkchaos.checkers.evidence.PromiseTally;
import io.zkchaos.checkers.evidence.TestsPromises;
import java.util.List;
import java.util.SortedSet;

/**
 * The single-leader checker's findings (the {@code details} of its result).
 *
 * @param intervals            every leadership, in order of acquisition
 * @param tokenViolations      two holders of one token or czxid, or a token going backwards (each fails the run)
 * @param overlaps             real-time overlaps of two leaders (findings; fail the run only above max-overlap)
 * @param maxOverlapNanos      the max-overlap option in ns, or -1 when overlaps never fail the run
 * @param failoverBoundNanos   the bound within which a leader must exist after every heal
 * @param failovers            one per heal: how long until a leader held
 * @param faultFailovers       one per fault start: how long until the next leader acquired (informational)
 * @param violations           every violation in words, in the order found
 */
public record SingleLeaderReport(List<LeaderInterval> intervals, List<TokenViolation> tokenViolations,
                                 List<LeaderOverlap> overlaps, long maxOverlapNanos, long failoverBoundNanos,
                                 List<Failover> failovers, List<Failover> faultFailovers, List<String> violations)
        implements Findings, TestsPromises {

    /** Tokens judged on every leadership; the failover bound on every heal. */
    @Override
    public List<PromiseTally> promises() {
        return List.of(
                new PromiseTally("leaderships", "at most one leader per token, tokens only grow", intervals.size()),
                new PromiseTally("failovers", "a leader again within the failover bound after every heal",
                        failovers.size()));
    }

    @Override
    public SortedSet<String> findingKinds() {
        return new KindSet().each(tokenViolations, TokenViolation::kind)
                .when(failovers != null && failovers.stream().anyMatch(f -> Boolean.FALSE.equals(f.withinBound())),
                        "no-leader-in-bound")
                .when(maxOverlapNanos >= 0 && overlaps != null && overlaps.stream()
                        .mapToLong(LeaderOverlap::awakeNanos).anyMatch(awake -> awake > maxOverlapNanos), "overlap")
                .build();
    }
}
