package io.zkchaos.checkers.state;

import java.util.Map;

/**
 * One server's data tree as a final {@code read-tree} recorded it.
 *
 * @param node        the server ({@code n1} ...)
 * @param readIndex   history index of the read's completion
 * @param invokeTime  ns since the start of the run when the read began, -1 if unknown
 * @param round       which round of the final reads it came from (rounds repeat until the servers agree)
 * @param zxid        the newest zxid that shaped the tree (the largest czxid, mzxid or pzxid of any znode)
 * @param znodes      every znode by path, each a map of its fields ({@code data}, {@code version}, {@code owner} ...)
 */
public record ServerTree(String node, long readIndex, long invokeTime, long round, long zxid,
                         Map<String, Map<String, Object>> znodes) {

    public ServerTree {
        znodes = Map.copyOf(znodes);
    }
}
