package io.zkchaos.checkers.log;

/**
 * What was read of one node's committed log.
 *
 * @param node        the node
 * @param reads       how many ok {@code read-log} operations read it
 * @param finalLength length of its last read log
 * @param lastEntry   the last entry of its last read log, or null if empty
 */
public record NodeLog(String node, int reads, int finalLength, LogEntry lastEntry) {
}
