package io.zkchaos.checkers.linear;

import io.zkchaos.checkers.Findings;
import io.zkchaos.checkers.KindSet;
import io.zkchaos.checkers.evidence.PromiseTally;
import io.zkchaos.checkers.evidence.TestsPromises;
import java.util.List;
import java.util.SortedSet;

/**
 * The linearizability checker's findings, as {@link io.zkchaos.checkers.CheckResult#details()}.
 *
 * @param model              the model's name
 * @param partitioned        whether the history was split into independent partitions (by key)
 * @param partitions         how many partitions there were
 * @param operations         how many operations were searched (fail and unanswered read-only operations dropped)
 * @param unobservedDropped  indeterminate operations left out because no completed operation could have observed
 *                           them (see {@link io.zkchaos.checkers.model.UnobservedInfo}); not counted in {@code operations}
 * @param partitionsChecked  how many partitions reached a verdict before the check ended
 * @param elapsedMillis      wall time of the check
 * @param peakConfigurations the most configurations held in the searches' caches at once (sampled)
 * @param counterexample     why the history is not linearizable; null unless invalid
 * @param unknownCause       why there is no verdict (time limit, memory guard); null unless unknown
 */
public record LinearizabilityDetails(String model, boolean partitioned, int partitions, int operations,
                                     int unobservedDropped,
                                     int partitionsChecked, long elapsedMillis, long peakConfigurations,
                                     Counterexample counterexample, String unknownCause)
        implements Findings, TestsPromises {

    /** Linearizability judged on the operations searched (by partitions that reached a verdict or not). */
    @Override
    public List<PromiseTally> promises() {
        return List.of(new PromiseTally("operations", "the operations linearizable against the " + model + " model",
                operations));
    }

    @Override
    public SortedSet<String> findingKinds() {
        return new KindSet().when(counterexample != null, "not-linearizable").build();
    }
}
