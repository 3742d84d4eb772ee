package io.zkchaos.examples.counter;

import io.zkchaos.junit.ChaosClient;
import io.zkchaos.junit.ChaosProcess;
import io.zkchaos.junit.OperationFailed;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * One client process of the chaos test: its own ZooKeeper session and a {@link ZkCounter} on it. Each step reads the
 * counter, then tries to add one to what it read; both are recorded as operations of a compare-and-set register
 * ({@code read} → value; {@code cas [expected, new]}), which the linearizable checker judges.
 */
final class CounterClient implements ChaosClient {

    static final String PATH = "/example-counter";

    private final ZooKeeper zk;
    private final ZkCounter counter;

    CounterClient(String connectString, Duration sessionTimeout) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        zk = new ZooKeeper(connectString, (int) sessionTimeout.toMillis(), e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        try {
            if (!connected.await(sessionTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IOException("not connected to " + connectString + " within " + sessionTimeout);
            }
            counter = new ZkCounter(zk, PATH);
            counter.createIfAbsent(); // every client makes sure; only the first creates it
        } catch (Exception e) {
            zk.close();
            throw e;
        }
    }

    @Override
    public void step(ChaosProcess process) throws Exception {
        long seen = process.call("read", null, counter::get);
        process.call("cas", List.of(seen, seen + 1), () -> {
            if (!counter.compareAndSet(seen, seen + 1)) {
                throw new OperationFailed("not " + seen); // nothing was written
            }
            return null; // ok, with the invoked [expected, new]
        });
    }

    @Override
    public void close() throws InterruptedException {
        zk.close();
    }
}
