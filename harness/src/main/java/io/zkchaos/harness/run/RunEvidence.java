package io.zkchaos.harness.run;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Checker;
import io.zkchaos.checkers.Checkers;
import io.zkchaos.checkers.evidence.Exercised;
import io.zkchaos.checkers.evidence.Minimum;
import io.zkchaos.checkers.evidence.PromiseTally;
import io.zkchaos.checkers.evidence.TestsPromises;
import io.zkchaos.checkers.history.History;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.workloads.WorkloadDescriptor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Judges whether a run exercised enough for its verdict to be evidence: what its history shows it exercised, with
 * what the harness saw of the servers, against the minimum of its workload and its nemesis
 * ({@link Minimum}, relaxed by {@code --relax}). A run below it is {@code unknown}, never {@code valid}.
 */
final class RunEvidence {

    private RunEvidence() {
    }

    /** The minimum a run of {@code config} with {@code workload} is held to. */
    static Minimum minimum(RunConfig config, WorkloadDescriptor workload) {
        return workload.minimum().and(config.nemesisDescriptor().minimum(workload.underFault()));
    }

    /** @throws IllegalArgumentException naming a relaxed id that no requirement of this run has, and the known ones */
    static void requireKnown(RunConfig config, WorkloadDescriptor workload) {
        java.util.List<String> known = minimum(config, workload).ids();
        for (String id : config.checks().relax()) {
            if (!id.equals(Minimum.ALL) && !known.contains(id)) {
                throw new IllegalArgumentException("relax: '" + id + "' is not an evidence requirement of this run; "
                        + "its requirements: " + String.join(", ", known) + " (or all)");
            }
        }
    }

    /**
     * The evidence result ({@link Minimum#CHECKER}), whose details are an
     * {@link io.zkchaos.checkers.evidence.EvidenceReport}; a history it cannot read makes it {@code unknown} with the
     * error, as any checker that throws.
     *
     * @param quorumSyncs   the syncs the proxy's taps saw, by kind (empty without taps)
     * @param leaderChanges how often the servers' leader changed, -1 when not observed
     * @param bugCodePaths  for the fle nodes, how often each switched-on bug's code path ran
     */
    static CheckResult judge(RunConfig config, WorkloadDescriptor workload, History history,
                             Map<String, Long> quorumSyncs, long leaderChanges, Map<String, Long> bugCodePaths) {
        return judge(config, workload, history, quorumSyncs, leaderChanges, bugCodePaths, Map.of());
    }

    /**
     * The evidence result, with what the checkers said they put to the test ({@link #promises}): a promise the
     * workload's minimum names ({@link io.zkchaos.checkers.evidence.Requirement.PromiseTested}) that was tested 0
     * times makes the run {@code unknown}; the others are listed, tested or not.
     *
     * @param promises by checker, its promises with their counts
     */
    static CheckResult judge(RunConfig config, WorkloadDescriptor workload, History history,
                             Map<String, Long> quorumSyncs, long leaderChanges, Map<String, Long> bugCodePaths,
                             Map<String, List<PromiseTally>> promises) {
        Minimum minimum = minimum(config, workload);
        Checker evidence = new Checker() {
            @Override
            public String name() {
                return Minimum.CHECKER;
            }

            @Override
            public CheckResult check(History h) {
                Exercised run = Exercised.of(h).withObserved(quorumSyncs, leaderChanges, bugCodePaths)
                        .withPromises(promises);
                return minimum.judge(run, config.checks().relax());
            }
        };
        return Checkers.runSafely(evidence, history);
    }

    /**
     * What the checkers of {@code checked} (a verdict and its parts, at any depth) said they put to the test, by
     * checker name: each result whose details are {@link TestsPromises}. A checker named twice counts once (the
     * first, outermost).
     */
    static Map<String, List<PromiseTally>> promises(CheckResult checked) {
        Map<String, List<PromiseTally>> byChecker = new LinkedHashMap<>();
        collect(checked, byChecker);
        return byChecker;
    }

    private static void collect(CheckResult r, Map<String, List<PromiseTally>> byChecker) {
        if (r.details() instanceof TestsPromises t) {
            byChecker.putIfAbsent(r.checker(), t.promises());
        }
        r.parts().forEach(p -> collect(p, byChecker));
    }
}
