package io.zkchaos.harness.cluster.local;

import java.io.File;
import java.nio.file.Path;
import org.apache.zookeeper.server.DataNode;
import org.apache.zookeeper.server.DataTree;
import org.apache.zookeeper.server.ZKDatabase;
import org.apache.zookeeper.server.persistence.FileTxnSnapLog;

/**
 * Changes a stopped server's data behind the ensemble's back: loads its database (newest snapshot plus its
 * transaction logs) with ZooKeeper's own classes, changes one znode's data — keeping its version, mzxid and mtime, so
 * that nothing but the bytes differ — and saves a snapshot at the server's last zxid. Started again, the server
 * loads that snapshot (the newest), has nothing to replay after it, and its leader finds it up to date: it serves
 * the planted bytes while every other server serves the real ones.
 */
final class SnapshotPlanter {

    private SnapshotPlanter() {
    }

    /**
     * @param dataDir the server's {@code dataDir} (holding {@code version-2/})
     * @return the snapshot written
     */
    static File setData(Path dataDir, String path, byte[] data) throws Exception {
        FileTxnSnapLog snapLog = new FileTxnSnapLog(dataDir.toFile(), dataDir.toFile());
        try {
            ZKDatabase db = new ZKDatabase(snapLog);
            db.loadDataBase();
            DataTree tree = db.getDataTree();
            DataNode node = tree.getNode(path);
            if (node == null) {
                throw new IllegalArgumentException(path + " is not in the tree loaded from " + dataDir);
            }
            tree.setData(path, data, node.stat.getVersion(), node.stat.getMzxid(), node.stat.getMtime());
            return snapLog.save(tree, db.getSessionWithTimeOuts(), true);
        } finally {
            snapLog.close();
        }
    }
}
