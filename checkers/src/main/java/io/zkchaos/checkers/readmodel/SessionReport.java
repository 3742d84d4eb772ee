package io.zkchaos.checkers.readmodel;

import java.util.List;

/**
 * What the per-session analysis of plain reads found.
 *
 * @param plainReads  ok plain reads analysed
 * @param syncReads   ok sync-reads (checked for linearizability with the writes)
 * @param writes      writes and cas that did not fail
 * @param staleReads  stale plain reads (allowed unless strict)
 * @param violations  reads ZooKeeper's guarantees forbid
 */
public record SessionReport(int plainReads, int syncReads, int writes, List<StaleRead> staleReads,
                            List<ReadViolation> violations) {
}
