package io.zkchaos.workloads.election;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One term of leadership as the candidate learned it.
 *
 * @param token the sequence number of the candidate's znode: the fencing token (grows with every candidacy)
 * @param czxid the zxid that created the znode (also grows; ties the token to ZooKeeper's order)
 * @param node  the candidate's name
 * @param path  the candidate's znode
 */
public record Leadership(long token, long czxid, String node, String path) {

    /** The acquire's ok value: {@code {"token", "czxid", "node"}}. */
    public Map<String, Object> toValue() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("token", token);
        m.put("czxid", czxid);
        m.put("node", node);
        return m;
    }
}
