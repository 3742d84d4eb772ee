package io.zkchaos.workloads;

import java.nio.charset.StandardCharsets;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

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

    /** Creates {@code path} and its parents as persistent znodes with empty data; existing ones are fine. */
    public static void ensurePath(ZooKeeper zk, String path) throws KeeperException, InterruptedException {
        if (!path.startsWith("/") || path.endsWith("/") && path.length() > 1) {
            throw new IllegalArgumentException("not an absolute znode path: " + path);
        }
        StringBuilder prefix = new StringBuilder();
        for (String part : path.substring(1).split("/")) {
            prefix.append('/').append(part);
            try {
                zk.create(prefix.toString(), new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            } catch (KeeperException.NodeExistsException e) {
                // already there
            }
        }
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
