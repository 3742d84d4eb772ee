package io.zkchaos.harness.cluster;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/** Test helpers: a connected ZooKeeper client and writes. */
public final class Zk {

    private Zk() {
    }

    /** A client connected within 20 s. */
    public static ZooKeeper connect(String connectString, Duration sessionTimeout) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connectString, (int) sessionTimeout.toMillis(), e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        if (!connected.await(20, TimeUnit.SECONDS)) {
            zk.close();
            throw new AssertionError("no connection to " + connectString + " within 20 s");
        }
        return zk;
    }

    /** Creates a persistent znode; true if the write was acknowledged. */
    public static boolean write(ZooKeeper zk, String path) throws InterruptedException {
        try {
            zk.create(path, new byte[] {1}, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            return true;
        } catch (KeeperException e) {
            return false;
        }
    }
}
