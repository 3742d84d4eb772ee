package io.zkchaos.checkers.log;

import io.zkchaos.checkers.Findings;
import io.zkchaos.checkers.KindSet;
import io.zkchaos.checkers.evidence.PromiseTally;
import io.zkchaos.checkers.evidence.TestsPromises;
import java.util.List;
import java.util.SortedSet;

/**
 * The log-prefix checker's findings (the {@code details} of its result).
 *
 * @param nodes      per node, what was read
 * @param longest    length of the longest log read
 * @param violations every breach found
 */
public record LogReport(List<NodeLog> nodes, int longest, List<LogViolation> violations)
        implements Findings, TestsPromises {

    /** Prefixes judged on the logs read (one per node) and on their entries. */
    @Override
    public List<PromiseTally> promises() {
        return List.of(new PromiseTally("logs", "committed logs are prefixes of one another, nothing committed "
                + "disappears", nodes.size()));
    }

    @Override
    public SortedSet<String> findingKinds() {
        return new KindSet().each(violations, LogViolation::kind).build();
    }
}
