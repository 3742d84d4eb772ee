package io.zkchaos.checkers.readmodel;

/**
 * A read that breaks ZooKeeper's guarantees for plain reads.
 *
 * @param kind        {@code read-backwards} (the session had already seen a later write), {@code never-written}
 *                    (no write or cas invoked the value, and it is not the initial value), {@code failed-write}
 *                    (the value's only write failed), {@code future-read} (the value's write was invoked only after the
 *                    read completed), {@code stale-sync-read} (a sync-read returned the initial null although a
 *                    write had been acknowledged before it began: not linearizable, but the cas-register model
 *                    lets a nil read match any state, so it is caught here)
 * @param key         the key
 * @param process     the reading session
 * @param readIndex   history index of the read's ok
 * @param value       what the read returned
 * @param seenValue   for {@code read-backwards}, the later value the session had already seen; for
 *                    {@code stale-sync-read}, the acknowledged value it missed; else null
 * @param seenIndex   for {@code read-backwards}, history index where the session saw it; for {@code stale-sync-read},
 *                    where that value was acknowledged; else -1
 * @param explanation the finding in words
 */
public record ReadViolation(String kind, String key, int process, long readIndex, Object value, Object seenValue,
                            long seenIndex, String explanation) {
}
