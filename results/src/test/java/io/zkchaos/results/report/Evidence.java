package io.zkchaos.results.report;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.evidence.Exercised;
import io.zkchaos.checkers.evidence.FaultTally;
import io.zkchaos.checkers.evidence.FunctionTally;
import io.zkchaos.checkers.evidence.Minimum;
import io.zkchaos.checkers.evidence.OpCounts;
import io.zkchaos.checkers.evidence.Phase;
import io.zkchaos.checkers.evidence.Requirement;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What two runs exercised, judged against a register workload's minimum and its nemesis', as the runner judges it:
 * one that was enough, one whose nemesis never acted and whose writes all failed.
 */
final class Evidence {

    private Evidence() {
    }

    static Minimum minimum(String fault) {
        return Minimum.of(new Requirement.Acknowledged("acked-main", Phase.MAIN, Set.of("write", "cas")),
                new Requirement.Acknowledged("acked-after-heal", Phase.AFTER_HEAL, Set.of()),
                new Requirement.FaultApplied("fault-applied"),
                new Requirement.AcknowledgedUnderFault("acked-under-fault", Set.of(), Set.of(fault)));
    }

    /**
     * 412 of 420 acknowledged, 210 of them while isolate-leader was in force; a protocol fault fired 2 of 3
     * triggers; {@code acked-after-heal} relaxed by the user.
     */
    static CheckResult enough() {
        Exercised run = new Exercised(List.of(
                new FunctionTally("write", c(300, 5, 2), c(250, 5, 2), c(120, 3, 2), c(50, 0, 0)),
                new FunctionTally("read", c(112, 0, 1), c(90, 0, 1), c(90, 0, 1), c(22, 0, 0))),
                Map.of("read", c(3, 0, 0)),
                List.of(new FaultTally("isolate-leader", 3, 1, 0, List.of("no leader to aim at"), 210, 216, 0, 0),
                        new FaultTally("stall-during-snapshot", 2, 0, 0, List.of(), 0, 10, 3, 2)),
                true, 3, Map.of(), -1, Map.of())
                .withObserved(Map.of("DIFF", 4L, "TRUNC", 0L, "SNAP", 1L), 2, Map.of());
        return minimum("isolate-leader").judge(run, List.of("acked-after-heal"));
    }

    /** Every write failed, and kill-leader found no leader to kill three times out of three. */
    static CheckResult tooLittle() {
        Exercised run = new Exercised(List.of(
                new FunctionTally("write", c(0, 4, 0), c(0, 4, 0), OpCounts.NONE, OpCounts.NONE)),
                Map.of(), List.of(new FaultTally("kill-leader", 0, 3, 0, List.of("no leader"), 0, 0, 0, 0)),
                false, 0, Map.of(), 0, Map.of());
        return minimum("kill-leader").judge(run, List.of());
    }

    private static OpCounts c(long ok, long fail, long info) {
        return new OpCounts(ok, fail, info);
    }
}
