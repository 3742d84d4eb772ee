package io.zkchaos.harness.bench;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/** The benchmarks' ZooKeeper clients. */
final class BenchClients {

    private BenchClients() {
    }

    /**
     * A client of {@code connectString}, connected.
     *
     * @throws IOException naming the connect string when it did not connect within 30 s (the client is closed)
     */
    static ZooKeeper connect(String connectString, Duration sessionTimeout) throws IOException, InterruptedException {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connectString, (int) sessionTimeout.toMillis(), e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        if (!connected.await(30, TimeUnit.SECONDS)) {
            zk.close();
            throw new IOException("no connection to " + connectString + " within 30 s");
        }
        return zk;
    }
}
