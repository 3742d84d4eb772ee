package io.zkchaos.checkers.leader;

/**
 * Two leaders that both believed they led at the same real time.
 *
 * <p>Inherent to lease-free recipes: a paused or partitioned leader learns late that its ephemeral node is gone.
 * Whether it did damage depends on fencing: a store that rejects tokens lower than the highest it has seen rejects
 * every write of the stale leader once the newer leader has written.
 *
 * @param stale              the leader with the lower token (the one that had lost)
 * @param newer              the leader with the higher token
 * @param startIndex         history index at which the overlap began (the later of the two starts)
 * @param startNanos         time at which it began, -1 if unknown
 * @param lengthNanos        how long both believed they led, -1 if the history has no times
 * @param fencingWouldReject true if the stale leader's token is strictly lower than the newer one's, so a fencing
 *                           store would have rejected the stale leader's writes after the newer leader's first write
 */
public record LeaderOverlap(LeaderInterval stale, LeaderInterval newer, long startIndex, long startNanos,
                            long lengthNanos, boolean fencingWouldReject) {
}
