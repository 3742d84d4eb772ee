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
 * @param frozenNanos        how much of the overlap the stale leader's process spent frozen by the nemesis (a pause
 *                           that named it, until the next heal): a frozen process cannot learn anything; 0 when it
 *                           was never frozen, -1 without times
 * @param awakeNanos         the rest: how long the stale leader, running, still believed it led (what max-overlap
 *                           judges); -1 without times
 */
public record LeaderOverlap(LeaderInterval stale, LeaderInterval newer, long startIndex, long startNanos,
                            long lengthNanos, boolean fencingWouldReject, long frozenNanos, long awakeNanos) {

    /** An overlap whose stale leader was never frozen: all of it awake. */
    public LeaderOverlap(LeaderInterval stale, LeaderInterval newer, long startIndex, long startNanos,
                         long lengthNanos, boolean fencingWouldReject) {
        this(stale, newer, startIndex, startNanos, lengthNanos, fencingWouldReject, lengthNanos < 0 ? -1 : 0,
                lengthNanos);
    }
}
