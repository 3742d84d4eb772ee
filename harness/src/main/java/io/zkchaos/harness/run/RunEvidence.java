package io.zkchaos.harness.run;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Checker;
import io.zkchaos.checkers.Checkers;
import io.zkchaos.checkers.evidence.Exercised;
import io.zkchaos.checkers.evidence.Minimum;
import io.zkchaos.checkers.history.History;
import io.zkchaos.workloads.WorkloadDescriptor;
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
        Minimum minimum = minimum(config, workload);
        Checker evidence = new Checker() {
            @Override
            public String name() {
                return Minimum.CHECKER;
            }

            @Override
            public CheckResult check(History h) {
                Exercised run = Exercised.of(h).withObserved(quorumSyncs, leaderChanges, bugCodePaths);
                return minimum.judge(run, config.checks().relax());
            }
        };
        return Checkers.runSafely(evidence, history);
    }
}
