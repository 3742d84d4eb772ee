package io.zkchaos.workloads;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;

/** Small helpers for znode paths and long values stored as decimal text. */
public final class Znodes {

    private Znodes() {
    }

    public static byte[] encode(long value) {
        return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
    }

    /** The long in {@code data}, or null for an empty (never written) znode. */
    public static Long decode(byte[] data) {
        if (data == null || data.length == 0) {
            return null;
        }
        return Long.parseLong(new String(data, StandardCharsets.US_ASCII));
    }

    /**
     * Creates {@code path} and its parents as persistent znodes with empty data and {@code acl} (setup's:
     * {@link ZnodeAcls#forSetup}); existing ones are fine.
     */
    public static void ensurePath(ZooKeeper zk, String path, List<ACL> acl)
            throws KeeperException, InterruptedException {
        if (!path.startsWith("/") || path.endsWith("/") && path.length() > 1) {
            throw new IllegalArgumentException("not an absolute znode path: " + path);
        }
        StringBuilder prefix = new StringBuilder();
        for (String part : path.substring(1).split("/")) {
            prefix.append('/').append(part);
            try {
                zk.create(prefix.toString(), new byte[0], acl, CreateMode.PERSISTENT);
            } catch (KeeperException.NodeExistsException e) {
                // already there
            }
        }
    }

    /** As {@link #ensurePath(ZooKeeper, String, List)} with an open ACL (tests, benchmarks). */
    public static void ensurePath(ZooKeeper zk, String path) throws KeeperException, InterruptedException {
        ensurePath(zk, path, ZnodeAcls.OPEN.forSetup());
    }

    /** Deletes {@code path} and everything below it; a missing path is fine. */
    public static void deleteRecursive(ZooKeeper zk, String path) throws KeeperException, InterruptedException {
        try {
            for (String child : zk.getChildren(path, false)) {
                deleteRecursive(zk, path + "/" + child);
            }
            zk.delete(path, -1);
        } catch (KeeperException.NoNodeException e) {
            // already gone
        }
    }
}
