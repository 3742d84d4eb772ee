package io.zkchaos.checkers.log;

/**
 * A breach of ZAB's total order or durability.
 *
 * @param kind        {@code diverged} (two logs are not prefixes of one another), {@code disappeared} (a node's
 *                    later read lost entries its earlier read had), {@code lost-everywhere} (an entry read once is in
 *                    no node's final log), {@code zxid-order} (zxids not increasing within one log)
 * @param node        the node whose log shows it
 * @param readIndex   history index of the read (its ok) that shows it
 * @param position    position in the log (0-based) where it shows
 * @param entry       that node's entry at {@code position}, or null if its log ends before
 * @param otherNode   the node (or the same node's earlier read) it is compared with, or null
 * @param otherEntry  the other log's entry at {@code position}, or null
 * @param explanation the finding in words
 */
public record LogViolation(String kind, String node, long readIndex, int position, LogEntry entry, String otherNode,
                           LogEntry otherEntry, String explanation) {
}
