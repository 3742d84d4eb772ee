package io.zkchaos.checkers.watches;

/**
 * One broken watch guarantee.
 *
 * @param rule        which guarantee: {@code ordering}, {@code event-before-data}, {@code phantom},
 *                    {@code lost-trigger} or {@code fired-twice} (docs/watches.md)
 * @param process     the watching session's process
 * @param path        the znode of the watch
 * @param index       the history index where it shows: the event, the read or the barrier
 * @param explanation for people, naming the events and operations by history index
 */
public record WatchViolation(String rule, int process, String path, long index, String explanation) {
}
