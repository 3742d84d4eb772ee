package io.zkchaos.checkers.multi;

import io.zkchaos.checkers.Findings;
import io.zkchaos.checkers.KindSet;
import io.zkchaos.checkers.evidence.PromiseTally;
import io.zkchaos.checkers.evidence.TestsPromises;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.SortedSet;

/**
 * The {@code multi-txn} checker's findings (the {@code details} of its result; the linearizability search is its
 * result's part).
 *
 * @param registers      the znodes that checks and sets name (present from the start, holding 0)
 * @param nodes          the znodes that creates and deletes name (absent at the start)
 * @param txnsOk         transactions acknowledged
 * @param txnsFailed     transactions that failed as a whole
 * @param txnsIndeterminate transactions whose outcome is unknown
 * @param multiReads     acknowledged reads of several znodes in one read-only multi
 * @param singleReads    acknowledged reads of one znode (a release without read-only multi reads each alone)
 * @param strict         whether reads were held to real time (linearizable reads) or to ZooKeeper's read guarantees
 * @param staleReads     reads that certainly missed a transaction acknowledged before they began
 * @param stale          the first of them, described
 * @param violationCount how many atomicity violations were found (the first {@link #SHOWN} are listed)
 * @param violationsByRule how many of each rule
 * @param violations     the first ones
 */
public record MultiReport(List<String> registers, List<String> nodes, int txnsOk, int txnsFailed,
                          int txnsIndeterminate, int multiReads, int singleReads, boolean strict, int staleReads,
                          List<String> stale, int violationCount,
                          Map<String, Integer> violationsByRule, List<MultiViolation> violations)
        implements Findings, TestsPromises {

    /** The most violations a report lists. */
    public static final int SHOWN = 100;

    public MultiReport {
        registers = List.copyOf(registers);
        nodes = List.copyOf(nodes);
        violationsByRule = Collections.unmodifiableMap(new TreeMap<>(violationsByRule));
        stale = List.copyOf(stale);
        violations = List.copyOf(violations);
    }

    /**
     * Atomicity judged on transactions that committed (all their operations took effect) and on those that aborted
     * (none did), on those of unknown outcome (all or none), and on reads (each transaction seen whole or not at
     * all).
     */
    @Override
    public List<PromiseTally> promises() {
        return List.of(
                new PromiseTally("committed", "a committed transaction took effect whole, linearizably", txnsOk),
                new PromiseTally("aborted", "an aborted transaction took no effect at all", txnsFailed),
                new PromiseTally("indeterminate", "a transaction of unknown outcome took effect whole or not at all",
                        txnsIndeterminate),
                new PromiseTally("reads", "a read sees each transaction whole or not at all",
                        (long) multiReads + singleReads));
    }

    /** Every rule broken: the violations listed are the first ones only, {@code violationsByRule} has them all. */
    @Override
    public SortedSet<String> findingKinds() {
        return new KindSet().each(violations, MultiViolation::rule)
                .all(violationsByRule == null ? null : violationsByRule.keySet()).build();
    }
}
