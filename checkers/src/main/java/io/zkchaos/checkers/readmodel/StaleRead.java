package io.zkchaos.checkers.readmodel;

/**
 * A plain read that returned a value already overwritten by an acknowledged write when the read began: allowed by
 * ZooKeeper's guarantees (a follower may serve a value it has not yet caught up on), reported, and a failure only in
 * strict mode.
 *
 * @param key            the key
 * @param process        the reading session
 * @param readIndex      history index of the read's invoke
 * @param value          what the read returned
 * @param newerValue     a value written after it whose write was acknowledged before the read began
 * @param newerAckIndex  history index of that write's ok
 * @param stalenessNanos how long before the read began the newer write was acknowledged, -1 if no times
 * @param explanation    always begins {@code stale read, allowed by ZooKeeper's guarantees}
 */
public record StaleRead(String key, int process, long readIndex, Object value, Object newerValue,
                        long newerAckIndex, long stalenessNanos, String explanation) {
}
