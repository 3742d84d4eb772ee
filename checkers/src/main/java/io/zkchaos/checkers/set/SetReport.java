package io.zkchaos.checkers.set;

import io.zkchaos.checkers.Findings;
import io.zkchaos.checkers.KindSet;
import io.zkchaos.checkers.evidence.PromiseTally;
import io.zkchaos.checkers.evidence.TestsPromises;
import java.util.List;
import java.util.SortedSet;

/**
 * The no-lost-commit checker's findings (the {@code details} of its result).
 *
 * @param attempted      distinct elements some add invoked
 * @param acknowledged   distinct elements whose add completed ok
 * @param indeterminate  distinct elements whose adds were all info (may be present or absent)
 * @param finalReads     the final read of every server (or process) that was checked
 * @param lost           acknowledged adds missing from a final read (violations)
 * @param unexpected     read values that were never added or whose add failed (violations)
 * @param infoPresent    indeterminate adds present in at least one final read
 * @param infoAbsent     indeterminate adds absent from every final read
 * @param notCovered     acknowledged adds that no final read began after (nothing to check them against)
 * @param unreadErrors   the errors of reads that did not complete ok (e.g. a server that could not be reached at
 *                       the end: values lost only there cannot be judged)
 */
public record SetReport(int attempted, int acknowledged, int indeterminate, List<FinalRead> finalReads,
                        List<LostValue> lost, List<UnexpectedValue> unexpected, int infoPresent, int infoAbsent,
                        int notCovered, List<String> unreadErrors)
        implements Findings, TestsPromises {

    /** No lost commit judged on acknowledged adds and on the final reads; indeterminate adds on what they became. */
    @Override
    public List<PromiseTally> promises() {
        return List.of(
                new PromiseTally("adds", "every acknowledged add is in every final read", acknowledged),
                new PromiseTally("indeterminate", "an add of unknown outcome is present everywhere or nowhere",
                        indeterminate),
                new PromiseTally("final-reads", "every server's final read checked, nothing unwritten in it",
                        finalReads.size()));
    }

    @Override
    public SortedSet<String> findingKinds() {
        return new KindSet().ifAny(lost, "lost").ifAny(unexpected, "unexpected").build();
    }
}
