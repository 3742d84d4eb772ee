package io.zkchaos.junit;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * A chaos test of a broken counter, run by {@link ChaosTestFailureIT} through JUnit's test kit (its name matches no
 * test pattern, so Maven does not run it by itself). The increment writes without the version it read, so two
 * clients that read the same value both "succeed" in writing the next one: a lost update, which no single copy of a
 * counter could show. No nemesis is needed to catch it.
 */
class BrokenCounterExample {

    static final String STORE = "target/zkchaos-selftest";

    @ChaosTest(time = "6s", recover = "1s", model = "cas-register", init = "0", seed = "3")
    void brokenCounter(ChaosContext chaos) throws InterruptedException {
        chaos.runClients(p -> new BrokenClient(chaos.connectString(), chaos.sessionTimeout()));
    }

    private static final class BrokenClient implements ChaosClient {
        private static final String PATH = "/broken-counter";
        private final ZooKeeper zk;

        BrokenClient(String connectString, Duration sessionTimeout) throws Exception {
            CountDownLatch connected = new CountDownLatch(1);
            zk = new ZooKeeper(connectString, (int) sessionTimeout.toMillis(), e -> {
                if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                    connected.countDown();
                }
            });
            if (!connected.await(sessionTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                zk.close();
                throw new IllegalStateException("not connected");
            }
            try {
                zk.create(PATH, "0".getBytes(StandardCharsets.UTF_8), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                        CreateMode.PERSISTENT);
            } catch (KeeperException.NodeExistsException e) {
                // another client made it
            }
        }

        @Override
        public void step(ChaosProcess process) throws Exception {
            long seen = process.call("read", null, () -> {
                zk.sync(PATH);
                return Long.parseLong(new String(zk.getData(PATH, false, null), StandardCharsets.UTF_8));
            });
            process.call("cas", List.of(seen, seen + 1), () -> {
                // the bug: version -1 overwrites whatever is there now
                zk.setData(PATH, Long.toString(seen + 1).getBytes(StandardCharsets.UTF_8), -1);
                return null;
            });
        }

        @Override
        public void close() throws InterruptedException {
            zk.close();
        }
    }
}
