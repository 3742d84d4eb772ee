package io.zkchaos.results;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Findings;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.evidence.Minimum;
import io.zkchaos.checkers.churn.ChurnReport;
import io.zkchaos.checkers.servers.AvailabilityReport;
import io.zkchaos.checkers.fenced.FencedReport;
import io.zkchaos.checkers.fenced.FencedViolation;
import io.zkchaos.checkers.leader.LeaderOverlap;
import io.zkchaos.checkers.leader.SingleLeaderReport;
import io.zkchaos.checkers.leader.TokenViolation;
import io.zkchaos.checkers.linear.LinearizabilityDetails;
import io.zkchaos.checkers.log.LogReport;
import io.zkchaos.checkers.log.LogViolation;
import io.zkchaos.checkers.multi.MultiReport;
import io.zkchaos.checkers.multi.MultiViolation;
import io.zkchaos.checkers.readmodel.ReadModelReport;
import io.zkchaos.checkers.readmodel.ReadViolation;
import io.zkchaos.checkers.sequential.SequentialReport;
import io.zkchaos.checkers.sequential.SequentialViolation;
import io.zkchaos.checkers.servers.ServerReport;
import io.zkchaos.checkers.sessions.SessionViolation;
import io.zkchaos.checkers.sessions.SessionsReport;
import io.zkchaos.checkers.set.SetReport;
import io.zkchaos.checkers.state.FinalStateReport;
import io.zkchaos.checkers.watches.WatchViolation;
import io.zkchaos.checkers.watches.WatchesReport;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The kinds of finding a verdict holds, each {@code checker:kind} ({@code no-lost-commit:lost},
 * {@code zk-read-model:not-linearizable}, {@code single-leader:duplicate-token} ...): what "the same finding" means
 * when a run is replayed or shrunk. Two runs that lost different elements, or caught a different pair of leaders,
 * found the same kind of thing.
 *
 * <p>A {@link Findings} kind says which record a checker's details are; a finding kind says what in them is wrong,
 * read from that record by its type (a saved verdict, {@link RunDirectory#readCheckResult()}, reads as a fresh one).
 * Details of a type with nothing here ({@link Findings.Untyped}, a checker's own), or a checker invalid without any
 * finding named here, give {@code checker:invalid}.
 */
public final class FindingKind {

    private FindingKind() {
    }

    /** The finding kinds of a verdict, fresh or saved: none when it is not invalid. */
    public static SortedSet<String> of(CheckResult result) {
        SortedSet<String> kinds = new TreeSet<>();
        collect(result, null, kinds);
        return kinds;
    }

    private static void collect(CheckResult r, String parent, Set<String> kinds) {
        if (r == null || r.validity() != Validity.INVALID || r.checker().equals(Minimum.CHECKER)) {
            return; // what the run exercised is not a finding
        }
        String owner = parent == null ? r.checker() : parent;
        int before = kinds.size();
        for (String kind : kinds(r.details())) {
            kinds.add(owner + ":" + kind);
        }
        for (CheckResult part : r.parts()) {
            // a composed verdict's parts are checkers of their own; a checker's sub-check is its own finding
            collect(part, r.details() == null ? null : owner, kinds);
        }
        if (kinds.size() == before && parent == null && (r.details() != null || r.parts().isEmpty())) {
            kinds.add(r.checker() + ":invalid");
        }
    }

    /** What one checker's details show, by their type. */
    private static Set<String> kinds(Findings details) {
        Set<String> k = new HashSet<>(); // a violation without a kind may add null
        if (details instanceof SetReport d) {
            nonEmpty(d.lost(), "lost", k);
            nonEmpty(d.unexpected(), "unexpected", k);
        } else if (details instanceof LogReport d) {
            d.violations().stream().map(LogViolation::kind).forEach(k::add);
        } else if (details instanceof FencedReport d) {
            d.violations().stream().map(FencedViolation::kind).forEach(k::add);
        } else if (details instanceof ReadModelReport d) {
            d.violations().stream().map(ReadViolation::kind).forEach(k::add);
            if (d.strict()) {
                nonEmpty(d.staleReads(), "stale-read", k);
            }
        } else if (details instanceof LinearizabilityDetails d) {
            if (d.counterexample() != null) {
                k.add("not-linearizable");
            }
        } else if (details instanceof SingleLeaderReport d) {
            d.tokenViolations().stream().map(TokenViolation::kind).forEach(k::add);
            if (d.failovers().stream().anyMatch(f -> Boolean.FALSE.equals(f.withinBound()))) {
                k.add("no-leader-in-bound");
            }
            if (d.maxOverlapNanos() >= 0 && d.overlaps().stream().mapToLong(LeaderOverlap::awakeNanos)
                    .anyMatch(awake -> awake > d.maxOverlapNanos())) {
                k.add("overlap");
            }
        } else if (details instanceof FinalStateReport d) {
            if (d.groups().size() > 1) {
                k.add("diverged");
            }
            nonEmpty(d.ephemerals(), "ephemeral-left", k);
        } else if (details instanceof WatchesReport d) {
            d.violations().stream().map(WatchViolation::rule).forEach(k::add);
        } else if (details instanceof SessionsReport d) {
            d.violations().stream().map(SessionViolation::rule).forEach(k::add);
            if (d.violationsByRule() != null) {
                k.addAll(d.violationsByRule().keySet()); // the violations listed are the first ones only
            }
        } else if (details instanceof SequentialReport d) {
            d.violations().stream().map(SequentialViolation::rule).forEach(k::add);
        } else if (details instanceof MultiReport d) {
            d.violations().stream().map(MultiViolation::rule).forEach(k::add);
            if (d.violationsByRule() != null) {
                k.addAll(d.violationsByRule().keySet());
            }
        } else if (details instanceof ChurnReport d) {
            nonEmpty(d.left(), "ephemeral-left", k);
            nonEmpty(d.missing(), "ephemeral-missing", k);
        } else if (details instanceof AvailabilityReport d) {
            nonEmpty(d.stalls(), "stall", k);
        } else if (details instanceof ServerReport d) {
            // only what no fault excused; a crash that was also a loop is both
            if (d.crashes().stream().anyMatch(c -> c.excusedBy() == null)) {
                k.add("crash");
            }
            if (d.crashLoops().stream().anyMatch(c -> c.excusedBy() == null)) {
                k.add("crash-loop");
            }
            nonEmpty(d.errors(), "error", k);
            if (d.rejoinLoops().stream().anyMatch(r -> r.excusedBy() == null)) {
                k.add("rejoin-loop");
            }
        }
        k.removeIf(kind -> kind == null || kind.isEmpty());
        return k;
    }

    private static void nonEmpty(List<?> list, String kind, Set<String> k) {
        if (list != null && !list.isEmpty()) {
            k.add(kind);
        }
    }

    /**
     * Whether the run exercised what its verdict needs (its evidence part is valid), or says nothing of it (a run
     * checked before evidence was judged). A run below its minimum found nothing that counts.
     */
    public static boolean exercisedEnough(CheckResult result) {
        for (CheckResult part : result.parts()) {
            if (part.checker().equals(Minimum.CHECKER)) {
                return part.validity() == Validity.VALID;
            }
        }
        return true;
    }
}
