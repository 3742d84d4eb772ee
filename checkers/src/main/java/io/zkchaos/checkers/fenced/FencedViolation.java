package io.zkchaos.checkers.fenced;

/**
 * One breach of fencing.
 *
 * @param kind         {@code accepted-after-higher} (acknowledged after a higher token had been acknowledged),
 *                     {@code log-order} (the store's log has it after a higher token), {@code missing-from-log}
 *                     (acknowledged but not in the log), {@code rejected-but-stored} (failed but in the log),
 *                     {@code never-written} (in the log, but no write invoked it)
 * @param token        the offending write's token
 * @param value        its value
 * @param index        history index of its completion (or of the log read, for log findings)
 * @param higherToken  the higher token it came after, or -1 when not applicable
 * @param higherIndex  history index of that higher write's completion (or its position in the log), or -1
 * @param explanation  the finding in words
 */
public record FencedViolation(String kind, long token, Object value, long index, long higherToken, long higherIndex,
                              String explanation) {
}
