package io.zkchaos.checkers.readmodel;

import io.zkchaos.checkers.Findings;
import io.zkchaos.checkers.KindSet;
import io.zkchaos.checkers.evidence.PromiseTally;
import io.zkchaos.checkers.evidence.TestsPromises;
import java.util.List;
import java.util.SortedSet;

/**
 * The ZooKeeper read-model checker's findings (the {@code details} of its result; the linearizability result of
 * writes, cas and sync-reads is its first part).
 *
 * @param strict        whether stale plain reads fail the run
 * @param plainReads    ok plain reads analysed per session
 * @param syncReads     ok sync-reads, checked as linearizable with the writes
 * @param writes        writes and cas that did not fail
 * @param staleReads    stale plain reads: allowed by ZooKeeper's guarantees, failures only when strict
 * @param violations    reads ZooKeeper forbids (plain reads backwards in a session, never written, from the future;
 *                      a sync-read of the initial null after an acknowledged write)
 */
public record ReadModelReport(boolean strict, int plainReads, int syncReads, int writes, List<StaleRead> staleReads,
                             List<ReadViolation> violations)
        implements Findings, TestsPromises {

    /** ZooKeeper's read model judged on writes and cas, on sync-reads and on plain reads. */
    @Override
    public List<PromiseTally> promises() {
        return List.of(
                new PromiseTally("writes", "writes and cas linearizable", writes),
                new PromiseTally("sync-reads", "a sync-read sees every write acknowledged before it", syncReads),
                new PromiseTally("plain-reads", "plain reads sequentially consistent within a session", plainReads));
    }

    /** A stale plain read is a finding only when reads were held to real time ({@code strict}). */
    @Override
    public SortedSet<String> findingKinds() {
        return new KindSet().each(violations, ReadViolation::kind)
                .when(strict && staleReads != null && !staleReads.isEmpty(), "stale-read").build();
    }
}
